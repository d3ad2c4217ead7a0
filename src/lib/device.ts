/**
 * Device detection and the device info payload (spec §3, §9).
 *
 * The recognisers are registries checked in the spec's order, first match wins. The order
 * is a requirement, not an accident: a Chromium-based Opera says "Chrome" and is therefore
 * recognised as Chrome, and an Android phone says "Linux" but is recognised as Android.
 *
 * Pure (the server imports it too): reading `navigator` and `screen` is src/browser/device-info.ts.
 */
interface Recogniser {
  name: string;
  test: RegExp;
}

/** Spec §9 browser order: Firefox, Edge, Chrome, Safari, Opera, IE, UC, Samsung, QQ, WeChat, Yandex, WebKit. */
export const BROWSERS: readonly Recogniser[] = [
  { name: "Firefox", test: /Firefox\/|FxiOS\// },
  // "Edg/" (Chromium Edge), "Edge/" (legacy), "EdgA/" (Android), "EdgiOS/" (iOS).
  { name: "Edge", test: /Edg(?:e|A|iOS)?\// },
  { name: "Chrome", test: /Chrome\/|CriOS\// },
  { name: "Safari", test: /Safari\// },
  { name: "Opera", test: /OPR\/|Opera/ },
  { name: "Internet Explorer", test: /MSIE |Trident\// },
  { name: "UC Browser", test: /UCBrowser|UCWEB/ },
  { name: "Samsung Internet", test: /SamsungBrowser/ },
  { name: "QQ Browser", test: /QQBrowser/ },
  { name: "WeChat", test: /MicroMessenger/ },
  { name: "Yandex", test: /YaBrowser/ },
  { name: "WebKit-based browser", test: /AppleWebKit/ },
];

export const UNKNOWN_BROWSER = "Unknown Browser";

/**
 * Spec §9 device order. iPad precedes macOS because an iPad says "like Mac OS X"; iPhone
 * precedes iPod because an iPod touch says "CPU iPhone OS" (so real iPods read as iPhone).
 */
export const DEVICES: readonly Recogniser[] = [
  { name: "iPad", test: /iPad/ },
  { name: "iPhone", test: /iPhone/ },
  { name: "Android", test: /Android/ },
  { name: "Windows", test: /Windows/ },
  { name: "macOS", test: /Macintosh|Mac OS X/ },
  { name: "Linux", test: /Linux/ },
  { name: "BlackBerry", test: /BlackBerry|BB10/ },
  { name: "iPod", test: /iPod/ },
  { name: "Samsung", test: /Samsung/i },
  { name: "Nokia", test: /Nokia/ },
  { name: "Sony", test: /Sony/ },
  { name: "HTC", test: /HTC/ },
  { name: "LG", test: /\bLG/ },
  { name: "Motorola", test: /Motorola|\bMOT-/ },
  { name: "Nexus", test: /Nexus/ },
  { name: "Kindle", test: /Kindle|Silk\// },
  { name: "Fire Phone", test: /Fire Phone|SD4930UR/ },
];

export const UNKNOWN_DEVICE = "Unknown Device";

function firstMatch(list: readonly Recogniser[], ua: string, fallback: string): string {
  return list.find((entry) => entry.test.test(ua))?.name ?? fallback;
}

/**
 * Names the browser of a user-agent string, in the spec's order.
 *
 * @example
 * detectBrowser("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"); // "Firefox"
 */
export function detectBrowser(ua: string): string {
  return firstMatch(BROWSERS, ua, UNKNOWN_BROWSER);
}

/**
 * Names the device kind of a user-agent string, in the spec's order.
 * An iPad in desktop mode (iPadOS 13+) sends a Mac user agent and reads as macOS.
 *
 * @example
 * detectDevice("Mozilla/5.0 (Linux; Android 14; Pixel 8) ..."); // "Android"
 */
export function detectDevice(ua: string): string {
  return firstMatch(DEVICES, ua, UNKNOWN_DEVICE);
}

/**
 * The deviceName of the device info payload, built from device and browser.
 *
 * @example
 * buildDeviceName("Linux", "Chrome"); // "Linux Chrome"
 */
export function buildDeviceName(device: string, browser: string): string {
  return `${device} ${browser}`;
}

/** localStorage key of the device id generated once per browser (spec §9). */
export const DEVICE_ID_KEY = "device_id";

/**
 * Returns the device id kept under `device_id`, generating and storing it on first use.
 *
 * @example
 * getStoredDeviceId(localStorage); // "3f0c…" (same value on every later call)
 */
export function getStoredDeviceId(
  storage: Storage,
  makeId: () => string = () => crypto.randomUUID(),
): string {
  const stored = storage.getItem(DEVICE_ID_KEY);
  if (stored) return stored;
  const id = makeId();
  storage.setItem(DEVICE_ID_KEY, id);
  return id;
}

/** Browser facts the combined device id is made of. */
export interface DeviceFingerprintParts {
  mimeTypesCount: number;
  userAgent: string;
  pluginsCount: number;
  screenHeight: number;
  screenWidth: number;
  pixelDepth: number;
}

/**
 * The combined deviceId: mime type count, the digits of the user agent, plugin count,
 * screen height, screen width and pixel depth, concatenated, then "/" and the stored id.
 *
 * @example
 * buildCombinedDeviceId(
 *   { mimeTypesCount: 2, userAgent: "Chrome/124.0", pluginsCount: 5, screenHeight: 1080, screenWidth: 1920, pixelDepth: 24 },
 *   "abc",
 * ); // "2124051080192024/abc"
 */
export function buildCombinedDeviceId(parts: DeviceFingerprintParts, storedId: string): string {
  const uaDigits = parts.userAgent.replace(/\D/g, "");
  return `${parts.mimeTypesCount}${uaDigits}${parts.pluginsCount}${parts.screenHeight}${parts.screenWidth}${parts.pixelDepth}/${storedId}`;
}
