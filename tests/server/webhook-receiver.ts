/** A loopback webhook endpoint for tests of the signed-webhook sender. */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Answers each request with the next status of `statuses` (then 200); keeps what it received. */
export async function receiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, close: () => new Promise((r) => server.close(r)) };
}
