import { type ComponentType, lazy, Suspense } from "react";
import { PageLoader } from "../components/page-loader";
import type { ScreenProps } from "./types";

/** Loaded only by resources that have custom fields: other lists do not carry it. */
const RuntimeDefScreen = lazy(() => import("./runtime-def"));

/**
 * A screen given its resource's definition as it is now: an `x-custom` resource's custom
 * fields merged into its schema (runtime-def.tsx); any other resource's definition as it is.
 */
export function withRuntimeDef<P extends ScreenProps>(Screen: ComponentType<P>): ComponentType<P> {
  return function ScreenWithRuntimeDef(props: P) {
    if (!props.def.schema["x-custom"]) return <Screen {...props} />;
    return (
      <Suspense fallback={<PageLoader />}>
        <RuntimeDefScreen screen={Screen as ComponentType<ScreenProps>} props={props} />
      </Suspense>
    );
  };
}
