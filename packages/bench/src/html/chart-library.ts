import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KreplayError } from '@kreplay/native';

const umdFile = 'chart.umd.min.js';
let cached: string | undefined;

/** Where the UMD build may be: chart.js in node_modules, else beside this module (a bundle ships it there). */
function candidates(): string[] {
  const found: string[] = [];
  try {
    found.push(join(dirname(createRequire(import.meta.url).resolve('chart.js')), umdFile));
  } catch {
    // not installed here, e.g. inside a single-file bundle
  }
  found.push(join(dirname(fileURLToPath(import.meta.url)), umdFile));
  return found;
}

/**
 * The source of Chart.js's UMD build (a dependency of this package), read once, for inlining into a
 * self-contained HTML page. Searched: the chart.js package (createRequire), then `chart.umd.min.js`
 * beside this module. `</script` is escaped so it cannot end the tag.
 * @throws KreplayError when neither holds it.
 */
export function chartLibrarySource(): string {
  if (cached !== undefined) return cached;
  const searched = candidates();
  const path = searched.find((candidate) => existsSync(candidate));
  if (path === undefined) {
    throw new KreplayError({
      packageName: 'bench',
      component: 'html',
      message: `[bench] [html] the Chart.js UMD build was not found (searched ${searched.join(', ')}). Reinstall @kreplay/bench so its dependency chart.js is present, or put ${umdFile} beside the bundle.`,
    });
  }
  cached = readFileSync(path, 'utf8').replace(/<\/script/gi, '<\\/script');
  return cached;
}
