import { Fragment } from "react";

const URL_PATTERN = /(https?:\/\/[^\s<>"')]+)/g;

/** Plain text with its http(s) URLs turned into links (mail bodies in the outbox). */
export function LinkifiedText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable string
          <a key={index} href={part} target="_blank" rel="noreferrer noopener">
            {part}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable string
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
