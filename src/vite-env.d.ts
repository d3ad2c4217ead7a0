/// <reference types="vite/client" />

/** ISO time of the build, defined by the build-meta plugin in vite.config.ts. */
declare const __BUILD_DATE__: string;
