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

/** Ink imports React's devtools client, used only in its development mode: an empty module stands in. */
export const withoutDevtools = {
  name: 'without-react-devtools',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'empty' }));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export default { connectToDevTools() {} };' }));
  },
};
