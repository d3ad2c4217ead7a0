/**
 * The QR code of an `otpauth://` URI, drawn as SVG in the browser: nothing leaves the page.
 * The encoder (qrcode-generator, no dependencies) is loaded only when a QR code is shown.
 */
import { Skeleton } from "antd";
import { useEffect, useState } from "react";

interface Matrix {
  size: number;
  path: string;
}

/** One SVG path of every dark module: small, and crisp at any size. */
async function qrMatrix(text: string): Promise<Matrix> {
  const { default: qrcode } = await import("qrcode-generator");
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const size = qr.getModuleCount();
  let path = "";
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++) if (qr.isDark(row, col)) path += `M${col} ${row}h1v1h-1z`;
  return { size, path };
}

/** Quiet zone around the code, in modules (the standard asks for four). */
const MARGIN = 4;

export function TotpQr({ uri, size = 184 }: { uri: string; size?: number }) {
  const [matrix, setMatrix] = useState<Matrix | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setMatrix(null);
    qrMatrix(uri).then(
      (m) => live && setMatrix(m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [uri]);

  if (failed) return null; // the secret shown as text beside it still works
  if (!matrix) return <Skeleton.Node active style={{ width: size, height: size }} />;
  const box = matrix.size + MARGIN * 2;
  return (
    <svg
      role="img"
      aria-label="QR code for your authenticator app"
      data-testid="totp-qr"
      width={size}
      height={size}
      viewBox={`${-MARGIN} ${-MARGIN} ${box} ${box}`}
      shapeRendering="crispEdges"
      style={{ background: "#fff", border: "1px solid #f0f0f0", borderRadius: 8 }}
    >
      <path d={matrix.path} fill="#000" />
    </svg>
  );
}
