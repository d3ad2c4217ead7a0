/**
 * The outbound client's address policy (server/http/outbound.ts): private, loopback and
 * link-local targets are refused however the address is written, IPv4 inside IPv6 included.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import {
  ipv6Groups,
  isPublicAddress,
  OutboundRefused,
  outboundCall,
  unreachableWords,
} from "../../server/http/outbound";

describe("the outbound address policy", () => {
  it("reads IPv6 addresses in every spelling", () => {
    expect(ipv6Groups("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(ipv6Groups("::ffff:7f00:1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(ipv6Groups("2606:4700::1111")).toEqual([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]);
    expect(ipv6Groups("fe80::1%eth0")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups("1::2::3")).toBeNull();
    expect(ipv6Groups("1:2:3")).toBeNull();
  });

  it("refuses IPv4 private addresses inside IPv6, however written", () => {
    for (const address of [
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe", // 169.254.169.254, cloud metadata
      "::ffff:0:10.0.0.1",
      "::7f00:1",
      "::127.0.0.1",
      "64:ff9b::7f00:1",
      "2002:7f00:1::",
      "0:0:0:0:0:0:0:1",
      "::",
      "fc00::1",
      "fe80::1",
      "ff02::1",
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it("lets public addresses through", () => {
    for (const address of [
      "8.8.8.8",
      "::ffff:8.8.8.8",
      "::ffff:808:808",
      "2606:4700::1111",
      "2002:808:808::1",
    ])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it("refuses a loopback target written as IPv4-mapped IPv6, and a URL with credentials", async () => {
    const options = { allowPrivate: false, timeoutMs: 2_000 };
    await expect(
      outboundCall("http://[::ffff:127.0.0.1]:9/", { method: "GET" }, options),
    ).rejects.toBeInstanceOf(OutboundRefused);
    await expect(
      outboundCall("http://[::ffff:7f00:1]:9/", { method: "GET" }, options),
    ).rejects.toBeInstanceOf(OutboundRefused);
    await expect(
      outboundCall("http://user:pw@example.com/", { method: "GET" }, options),
    ).rejects.toBeInstanceOf(OutboundRefused);
  });
});

describe("a call that got no answer, in words", () => {
  const failed = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

  it("never passes a system code on to a person (issue 27: getaddrinfo ENOTFOUND under a field)", () => {
    expect(unreachableWords(failed("getaddrinfo ENOTFOUND api.bigcommerce.com", "ENOTFOUND"))).toBe(
      "no host of that name was found",
    );
    expect(unreachableWords(failed("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"))).toBe(
      "it refused the connection",
    );
    expect(unreachableWords(failed("socket hang up", "ECONNRESET"))).toBe("it closed the connection");
    expect(unreachableWords(failed("No answer within 10000 ms"))).toBe("it did not answer in time");
    expect(unreachableWords(failed("connect EWHATEVER 10.0.0.1"))).toBe("the connection failed");
    expect(unreachableWords(new OutboundRefused("Only http and https URLs may be called"))).toBe(
      "Only http and https URLs may be called",
    );
  });
});

describe("a kept-alive connection the other side closed", () => {
  /**
   * A server that answers each connection's first request and closes the connection, without
   * answering, when a second request arrives on it: what a server does to a connection idle
   * past its keep-alive timeout just as the next request leaves.
   */
  async function closingServer() {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      let requests = 0;
      socket.on("data", (data) => {
        if (!data.includes("\r\n\r\n")) return;
        if (++requests > 1) return socket.destroy();
        socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/`,
      connections: () => connections,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it("sends an idempotent request again on a new connection; a POST is not sent twice", async () => {
    const server = await closingServer();
    try {
      const get = () => outboundCall(server.url, { method: "GET" }, { allowPrivate: true });
      expect((await get()).body).toBe("ok");
      expect((await get()).body).toBe("ok");
      expect(server.connections()).toBe(2);
      const post = () => outboundCall(server.url, { method: "POST", body: "{}" }, { allowPrivate: true });
      expect((await post()).status).toBe(200);
      const refused = await post().catch((error: unknown) => error);
      expect(unreachableWords(refused)).toBe("it closed the connection");
      expect(server.connections()).toBe(3);
    } finally {
      await server.close();
    }
  });
});
