import wabt from 'wabt';

/** The WebAssembly bytes of `wat` (SIMD enabled). */
export async function compileSubspaceScan(wat: string): Promise<Uint8Array> {
  const compiler = await wabt();
  const module = compiler.parseWat('subspace-scan.wat', wat, { simd: true });
  try {
    module.validate();
    return Uint8Array.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

/** The TypeScript module that carries `bytes` (subspace-scan-wasm.ts), as base64 (laid out as the formatter lays it out). */
export function subspaceScanModuleSource(bytes: Uint8Array): string {
  return [
    '// Generated from subspace-scan.wat by `pnpm --filter @tool-search/core run build-wasm`; do not edit.',
    '',
    '/** The WebAssembly module of subspace-scan.wat (SIMD), decoded once when this module loads. */',
    'export const SUBSPACE_SCAN_WASM: Uint8Array = Uint8Array.from(',
    '  atob(',
    `    '${Buffer.from(bytes).toString('base64')}',`,
    '  ),',
    '  (character) => character.charCodeAt(0),',
    ');',
    '',
  ].join('\n');
}
