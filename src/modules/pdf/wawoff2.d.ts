/** wawoff2 (Google's woff2 as WebAssembly) ships no types: its decompressor, WOFF2 to TrueType. */
declare module 'wawoff2/decompress.js' {
  export default function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
