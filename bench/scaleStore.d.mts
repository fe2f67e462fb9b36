// Types of scaleStore.mjs, for the TypeScript that imports it (the CLI scale test).

export function buildScaleStore(
  storeDir: string,
  wsDir: string,
  opts?: { checkpoints?: number; files?: number; seed?: number; rewindEvery?: number; start?: number },
): { ids: string[]; ws: string; logBytes: number; lines: number };
