/** Messages between the pdfjs renderer and its worker threads. */
export type PdfjsRequest =
  | { id: number; op: "info"; page?: undefined }
  | { id: number; op: "text"; page: number }
  | { id: number; op: "render"; page: number; width: number };

export type PdfjsReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: string; detail?: string } };

/** What a render request answers: RGBA pixels, unpremultiplied. */
export interface RenderedPixels {
  data: Uint8Array;
  width: number;
  height: number;
}
