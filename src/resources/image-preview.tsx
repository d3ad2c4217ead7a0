/**
 * The full-size preview of a field's images, loaded when a thumbnail is first opened: antd's
 * image viewer (zoom, rotate, flip through) is not needed to show the thumbnails of a list.
 */
import { Image } from "antd";

export interface ImagePreviewProps {
  urls: string[];
  /** The image shown first. */
  current: number;
  onClose: () => void;
}

export default function ImagePreview({ urls, current, onClose }: ImagePreviewProps) {
  return (
    <Image.PreviewGroup
      items={urls}
      preview={{
        visible: true,
        current,
        onVisibleChange: (visible) => {
          if (!visible) onClose();
        },
      }}
    />
  );
}
