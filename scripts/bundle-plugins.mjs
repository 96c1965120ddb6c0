// esbuild plugins shared by the node bundle (build.mjs) and the single binary
// (scripts/build-binary.mjs).

/**
 * archiver-utils 2 (under exceljs's archiver 5) still calls the deprecated `new Buffer(...)`.
 * Node stays quiet about that inside node_modules, but bundled code is not inside node_modules,
 * so every workbook written would print a DEP0005 warning on stderr: the three calls are replaced
 * by their current equivalents (same bytes).
 */
export const archiverBuffers = {
  name: 'archiver-utils-buffers',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]archiver-utils[\\/]index\.js$/ }, async (a) => {
      const { readFile } = await import('node:fs/promises');
      const text = (await readFile(a.path, 'utf8'))
        .replace('new Buffer(size)', 'Buffer.alloc(size)')
        .replace('new Buffer(0)', 'Buffer.alloc(0)')
        .replace('new Buffer(source)', 'Buffer.from(source)');
      if (text.includes('new Buffer(')) throw new Error(`${a.path}: an unexpected new Buffer() call is left`);
      return { contents: text, loader: 'js' };
    });
  },
};

/**
 * The zip writers (archiver's compress-commons and crc32-stream) checksum every byte they store
 * with the `crc-32` package, in JavaScript: ~270 ms of CPU for a work paper of 168,500 positions
 * (120 MB of sheet XML). Node's `zlib.crc32` (Node 20.15 and later; the engines field asks for
 * 20.19) gives the same checksums in native code at a fraction of that, so the bundles take
 * `crc-32` from `native-crc32.mjs`: the same functions and results, over zlib.
 */
export const nativeCrc32 = {
  name: 'native-crc32',
  setup(b) {
    b.onResolve({ filter: /^crc-32$/ }, async () => {
      const { fileURLToPath } = await import('node:url');
      return { path: fileURLToPath(new URL('./native-crc32.mjs', import.meta.url)) };
    });
  },
};

/** Ink imports React's devtools client, used only in its development mode: an empty module stands in. */
export const withoutDevtools = {
  name: 'without-react-devtools',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'empty' }));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export default { connectToDevTools() {} };' }));
  },
};
