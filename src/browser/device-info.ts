/**
 * The device info payload for sign-in and logout (spec §3, §9), read from the browser. The
 * rules that turn what is read into an id and a name are pure and live in src/lib/device.ts.
 */
import type { DeviceInfo } from "../../schemas/auth";
import {
  buildCombinedDeviceId,
  buildDeviceName,
  type DeviceFingerprintParts,
  detectBrowser,
  detectDevice,
  getStoredDeviceId,
} from "../lib/device";

/**
 * Browser only: the device info payload for sign-in and logout, read from `navigator`,
 * `screen` and `localStorage`.
 *
 * @example
 * getDeviceInfo(); // { deviceId: "2…24/3f0c…", deviceName: "Linux Chrome" }
 */
export function getDeviceInfo(): DeviceInfo {
  const ua = navigator.userAgent;
  const parts: DeviceFingerprintParts = {
    mimeTypesCount: navigator.mimeTypes?.length ?? 0,
    userAgent: ua,
    pluginsCount: navigator.plugins?.length ?? 0,
    screenHeight: screen.height,
    screenWidth: screen.width,
    pixelDepth: screen.pixelDepth,
  };
  return {
    deviceId: buildCombinedDeviceId(parts, getStoredDeviceId(localStorage)),
    deviceName: buildDeviceName(detectDevice(ua), detectBrowser(ua)),
  };
}
