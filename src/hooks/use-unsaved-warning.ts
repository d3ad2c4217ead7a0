/**
 * Asks before leaving the screen while `dirty` (Refine's unsaved-changes prompt, for screens
 * that keep their own edits rather than a generated form), and stops asking when it unmounts.
 */
import { useWarnAboutChange } from "@refinedev/core";
import { useEffect } from "react";

export function useUnsavedWarning(dirty: boolean): void {
  const { setWarnWhen } = useWarnAboutChange();
  useEffect(() => setWarnWhen(dirty), [dirty, setWarnWhen]);
  useEffect(() => () => setWarnWhen(false), [setWarnWhen]);
}
