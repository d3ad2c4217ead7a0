import { describe, expect, it, vi } from "vitest";
import {
  BROWSERS,
  buildCombinedDeviceId,
  buildDeviceName,
  DEVICE_ID_KEY,
  DEVICES,
  detectBrowser,
  detectDevice,
  getStoredDeviceId,
} from "./device";
import { MemoryStorage } from "./memory-storage";

/** Real user-agent strings, as sent by the named browsers and devices. */
const UA = {
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  firefoxIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/124.0 Mobile/15E148 Safari/605.1.15",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
  edgeLegacy:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041",
  edgeAndroid:
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.2478.64",
  chromeLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  chromeIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  operaChromium:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36 OPR/109.0.0.0",
  operaPresto: "Opera/9.80 (Windows NT 6.1; WOW64) Presto/2.12.388 Version/12.18",
  operaMini:
    "Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54",
  ie11: "Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko",
  ie9: "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)",
  ucJava: "UCWEB/2.0 (Java; U; MIDP-2.0; en-US; Nokia5130c-2) U2/1.0.0 UCBrowser/9.5.0.449 U2/1.0.0 Mobile",
  ucAndroid:
    "Mozilla/5.0 (Linux; U; Android 8.1.0; en-US; Nexus 6P Build/OPM7.171019.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/57.0.2987.108 UCBrowser/12.11.1.1197 Mobile Safari/537.36",
  samsungInternet:
    "Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
  qqBrowser:
    "Mozilla/5.0 (Linux; U; Android 10; zh-cn; MI 9 Build/QKQ1.190825.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/66.0.3359.126 MQQBrowser/10.1 Mobile Safari/537.36",
  wechatIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.28(0x18001c25) NetType/WIFI Language/zh_CN",
  yandexDesktop:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 YaBrowser/24.4.0.0 Safari/537.36",
  webviewIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  curl: "curl/8.4.0",
  ipad: "Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1 Mobile/15E148 Safari/604.1",
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  ipod: "Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1",
  androidPixel:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  windowsPhone:
    "Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.14977",
  blackberry10:
    "Mozilla/5.0 (BB10; Touch) AppleWebKit/537.10+ (KHTML, like Gecko) Version/10.0.9.2372 Mobile Safari/537.10+",
  blackberryJava: "BlackBerry9700/5.0.0.862 Profile/MIDP-2.1 Configuration/CLDC-1.1 VendorID/331",
  samsungBada:
    "Mozilla/5.0 (SAMSUNG; SAMSUNG-GT-S8500/S8500XXJEE; U; Bada/1.0; nl-nl) AppleWebKit/533.1 (KHTML, like Gecko) Dolfin/2.0 Mobile WVGA SMM-MMS/1.2.0 OPN-B",
  nokiaSymbian:
    "Mozilla/5.0 (Symbian/3; Series60/5.2 NokiaN8-00/012.002; Profile/MIDP-2.1 Configuration/CLDC-1.1 ) AppleWebKit/533.4 (KHTML, like Gecko) NokiaBrowser/7.3.0 Mobile Safari/533.4 3gpp-gba",
  sonyEricsson: "SonyEricssonK800i/R1CB Browser/NetFront/3.3 Profile/MIDP-2.0 Configuration/CLDC-1.1",
  htcAndroid:
    "Mozilla/5.0 (Linux; U; Android 2.2; en-us; HTC Desire Build/FRF91) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/533.1",
  lgFeature: "LG-GD510/V100 Obigo/WAP2.0 Profile/MIDP-2.1 Configuration/CLDC-1.1",
  motorolaFeature: "MOT-V3/0E.42.0ER MIB/2.2.1 Profile/MIDP-2.0 Configuration/CLDC-1.1",
  nexusAndroid:
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  kindleEink:
    "Mozilla/5.0 (X11; U; Linux armv7l like Android; en-us) AppleWebKit/531.2+ (KHTML, like Gecko) Version/5.0 Safari/531.2+ Kindle/3.0+",
  kindleNetFront: "Mozilla/4.0 (compatible; Linux 2.6.22) NetFront/3.4 Kindle/2.0 (screen 600x800)",
  firePhone:
    "Mozilla/5.0 (Linux; Android 4.2.2; SD4930UR Build/JDQ39) AppleWebKit/537.36 (KHTML, like Gecko) Silk/3.67 like Chrome/39.0.2171.93 Mobile Safari/537.36",
} as const;

describe("detectBrowser", () => {
  it.each([
    [UA.firefoxLinux, "Firefox"],
    [UA.firefoxIos, "Firefox"],
    [UA.edgeWindows, "Edge"],
    [UA.edgeLegacy, "Edge"],
    [UA.edgeAndroid, "Edge"],
    [UA.chromeLinux, "Chrome"],
    [UA.chromeIos, "Chrome"],
    [UA.safariMac, "Safari"],
    [UA.operaPresto, "Opera"],
    [UA.operaMini, "Opera"],
    [UA.ie11, "Internet Explorer"],
    [UA.ie9, "Internet Explorer"],
    [UA.ucJava, "UC Browser"],
    [UA.wechatIos, "WeChat"],
    [UA.webviewIos, "WebKit-based browser"],
    [UA.curl, "Unknown Browser"],
    ["", "Unknown Browser"],
  ])("%s → %s", (ua, expected) => {
    expect(detectBrowser(ua)).toBe(expected);
  });

  describe("the spec's order decides conflicts", () => {
    it("Edge says Chrome and Safari but Edge is checked first", () => {
      expect(UA.edgeWindows).toContain("Chrome/");
      expect(detectBrowser(UA.edgeWindows)).toBe("Edge");
    });

    it("Chrome says Safari but Chrome is checked first", () => {
      expect(detectBrowser(UA.chromeLinux)).toBe("Chrome");
    });

    it("a Chromium-based Opera says Chrome and is detected as Chrome (Chrome precedes Opera)", () => {
      expect(detectBrowser(UA.operaChromium)).toBe("Chrome");
    });

    it.each([
      [UA.ucAndroid, "Chrome"],
      [UA.samsungInternet, "Chrome"],
      [UA.qqBrowser, "Chrome"],
      [UA.yandexDesktop, "Chrome"],
    ])("Chromium-based browsers listed after Chrome read as Chrome: %s", (ua, expected) => {
      expect(detectBrowser(ua)).toBe(expected);
    });

    it("WeChat on iOS (no Safari token) is WeChat, not generic WebKit", () => {
      expect(UA.wechatIos).toContain("AppleWebKit");
      expect(detectBrowser(UA.wechatIos)).toBe("WeChat");
    });
  });

  // Modern Samsung, QQ and Yandex user agents all carry "Chrome" or "Safari"; their own
  // branches are reached only by a bare product token, which proves each branch exists.
  it.each([
    ["SamsungBrowser/24.0", "Samsung Internet"],
    ["MQQBrowser/10.1", "QQ Browser"],
    ["YaBrowser/24.4.0.0", "Yandex"],
    ["UCBrowser/12.11.1.1197 AppleWebKit/537.36", "UC Browser"],
  ])("bare token %s → %s", (ua, expected) => {
    expect(detectBrowser(ua)).toBe(expected);
  });

  it("lists the browsers in the spec's order", () => {
    expect(BROWSERS.map((b) => b.name)).toEqual([
      "Firefox",
      "Edge",
      "Chrome",
      "Safari",
      "Opera",
      "Internet Explorer",
      "UC Browser",
      "Samsung Internet",
      "QQ Browser",
      "WeChat",
      "Yandex",
      "WebKit-based browser",
    ]);
  });
});

describe("detectDevice", () => {
  it.each([
    [UA.ipad, "iPad"],
    [UA.iphone, "iPhone"],
    [UA.androidPixel, "Android"],
    [UA.edgeWindows, "Windows"],
    [UA.safariMac, "macOS"],
    [UA.chromeLinux, "Linux"],
    [UA.blackberry10, "BlackBerry"],
    [UA.blackberryJava, "BlackBerry"],
    [UA.samsungBada, "Samsung"],
    [UA.nokiaSymbian, "Nokia"],
    [UA.sonyEricsson, "Sony"],
    [UA.lgFeature, "LG"],
    [UA.motorolaFeature, "Motorola"],
    [UA.curl, "Unknown Device"],
    ["", "Unknown Device"],
  ])("%s → %s", (ua, expected) => {
    expect(detectDevice(ua)).toBe(expected);
  });

  describe("first match wins", () => {
    it("an iPad says 'like Mac OS X' but iPad is checked first", () => {
      expect(UA.ipad).toContain("Mac OS X");
      expect(detectDevice(UA.ipad)).toBe("iPad");
    });

    it("an iPad in desktop mode sends a Mac user agent and reads as macOS", () => {
      expect(detectDevice(UA.safariMac)).toBe("macOS");
    });

    it("an iPhone says 'like Mac OS X' but iPhone is checked first", () => {
      expect(detectDevice(UA.iphone)).toBe("iPhone");
    });

    it("an Android phone says Linux but Android is checked first", () => {
      expect(UA.androidPixel).toContain("Linux");
      expect(detectDevice(UA.androidPixel)).toBe("Android");
    });

    it("a Windows Phone that also says Android reads as Android", () => {
      expect(detectDevice(UA.windowsPhone)).toBe("Android");
    });

    it.each([
      [UA.ipod, "iPhone"],
      [UA.htcAndroid, "Android"],
      [UA.nexusAndroid, "Android"],
      [UA.kindleEink, "Android"],
      [UA.kindleNetFront, "Linux"],
      [UA.firePhone, "Android"],
      [UA.nokiaSymbian, "Nokia"],
    ])("devices listed late yield to earlier entries: %s → %s", (ua, expected) => {
      expect(detectDevice(ua)).toBe(expected);
    });
  });

  it.each([
    ["iPod", "iPod"],
    ["HTC_Touch_Diamond2", "HTC"],
    ["Nexus Player", "Nexus"],
    ["Kindle/3.0+", "Kindle"],
    ["Silk/3.67", "Kindle"],
    ["SD4930UR", "Fire Phone"],
  ])("bare token %s → %s", (ua, expected) => {
    expect(detectDevice(ua)).toBe(expected);
  });

  it("lists the devices in the spec's order", () => {
    expect(DEVICES.map((d) => d.name)).toEqual([
      "iPad",
      "iPhone",
      "Android",
      "Windows",
      "macOS",
      "Linux",
      "BlackBerry",
      "iPod",
      "Samsung",
      "Nokia",
      "Sony",
      "HTC",
      "LG",
      "Motorola",
      "Nexus",
      "Kindle",
      "Fire Phone",
    ]);
  });
});

describe("buildDeviceName", () => {
  it("joins device and browser", () => {
    expect(buildDeviceName("Linux", "Chrome")).toBe("Linux Chrome");
    expect(buildDeviceName(detectDevice(UA.iphone), detectBrowser(UA.iphone))).toBe("iPhone Safari");
  });
});

describe("getStoredDeviceId", () => {
  it("generates the id once and keeps it under device_id", () => {
    const storage = new MemoryStorage();
    const makeId = vi.fn(() => "generated-id");
    expect(getStoredDeviceId(storage, makeId)).toBe("generated-id");
    expect(getStoredDeviceId(storage, makeId)).toBe("generated-id");
    expect(makeId).toHaveBeenCalledTimes(1);
    expect(storage.getItem(DEVICE_ID_KEY)).toBe("generated-id");
  });

  it("returns an id stored earlier", () => {
    const storage = new MemoryStorage();
    storage.setItem("device_id", "kept");
    expect(getStoredDeviceId(storage, () => "new")).toBe("kept");
  });

  it("defaults to a random UUID", () => {
    const id = getStoredDeviceId(new MemoryStorage());
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("buildCombinedDeviceId", () => {
  const parts = {
    mimeTypesCount: 2,
    userAgent: UA.chromeLinux,
    pluginsCount: 5,
    screenHeight: 1080,
    screenWidth: 1920,
    pixelDepth: 24,
  };

  it("concatenates mime types, UA digits, plugins, height, width, depth, then / and the stored id", () => {
    const uaDigits = "501186645373612400053736";
    expect(UA.chromeLinux.replace(/\D/g, "")).toBe(uaDigits);
    expect(buildCombinedDeviceId(parts, "abc")).toBe(`2${uaDigits}51080192024/abc`);
  });

  it("keeps the part order (height before width)", () => {
    const id = buildCombinedDeviceId({ ...parts, userAgent: "", screenHeight: 1, screenWidth: 2 }, "x");
    expect(id).toBe("251224/x");
  });
});
