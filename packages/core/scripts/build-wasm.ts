/**
 * Compiles src/ranking/subspace-scan.wat into src/ranking/subspace-scan-wasm.ts (its bytes as a
 * TypeScript constant, so the package ships no binary file and needs no bundler support for
 * one). Run after editing the .wat: `pnpm --filter @tool-search/core run build-wasm`. A test
 * fails when the committed bytes are not those of the committed .wat.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileSubspaceScan, subspaceScanModuleSource } from './wasm-source';

const watUrl = new URL('../src/ranking/subspace-scan.wat', import.meta.url);
const outUrl = new URL('../src/ranking/subspace-scan-wasm.ts', import.meta.url);
const bytes = await compileSubspaceScan(readFileSync(watUrl, 'utf8'));
writeFileSync(outUrl, subspaceScanModuleSource(bytes));
console.log(`wrote ${fileURLToPath(outUrl)} (${bytes.length} bytes of WebAssembly)`);
