// Generated from subspace-scan.wat by `pnpm --filter @tool-search/core run build-wasm`; do not edit.

/** The WebAssembly module of subspace-scan.wat (SIMD), decoded once when this module loads. */
export const SUBSPACE_SCAN_WASM: Uint8Array = Uint8Array.from(
  atob(
    'AGFzbQEAAAABCAFgBH9/f38AAwIBAAUDAQABBxECBm1lbW9yeQIABHNjYW4AAArnAgHkAgMCewF/B3sgA/0ABAAhBCAD/QAEECEFIAAgAkEEdGohBgJAA0AgACAGTw0BIAD9AAQAIQcgB/2HASAE/boBIAf9iAEgBf26Af2uASEIIAD9AAQQIQcgB/2HASAE/boBIAf9iAEgBf26Af2uASEJIAD9AAQgIQcgB/2HASAE/boBIAf9iAEgBf26Af2uASEKIAD9AAQwIQcgB/2HASAE/boBIAf9iAEgBf26Af2uASELIAggCf0NAAECAxAREhMEBQYHFBUWFyAIIAn9DQgJCgsYGRobDA0ODxwdHh/9rgEhDCAKIAv9DQABAgMQERITBAUGBxQVFhcgCiAL/Q0ICQoLGBkaGwwNDg8cHR4f/a4BIQ0gASAB/QAEACAMIA39DQABAgMEBQYHEBESExQVFhcgDCAN/Q0ICQoLDA0ODxgZGhscHR4f/a4B/bgB/QsEACAAQcAAaiEAIAFBEGohAQwACwsL',
  ),
  (character) => character.charCodeAt(0),
);
