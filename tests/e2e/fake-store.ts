/**
 * The BigCommerce stand-in of the e2e runs (fake-bigcommerce.ts on E2E_STORE's port), started
 * beside the server by scripts/e2e-server.mjs: the store the Online store specs connect to.
 */
import { sampleProducts, startFakeBigCommerce } from "../server/fake-bigcommerce";
import { E2E_STORE } from "./env";

const store = await startFakeBigCommerce({
  hash: E2E_STORE.hash,
  token: E2E_STORE.token,
  port: E2E_STORE.port,
  // A sync takes long enough to watch its progress bar.
  productsLatencyMs: 1500,
});
store.products = sampleProducts(120);
console.log(`[e2e store] BigCommerce stand-in at ${store.url}/stores/${store.hash}`);
