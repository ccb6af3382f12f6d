#!/usr/bin/env bash
# The packages as a user gets them: every package packed with `pnpm pack` (the native one with the
# prebuilt addon of this machine), installed with npm into a folder outside the workspace, then:
# - the tarballs hold LICENSE and the package metadata, and @kreplay/native ships its prebuild and
#   the sources of a source build but no build/, tests or development files;
# - the install keeps the prebuild; the packages import; the host driver runs; the CLI runs;
# - the test kits (@kreplay/native/test, @kreplay/snapshot/test) run under vitest 4 and vitest 5;
# - a damaged prebuild fails to load with an error that says how to fix it, and the install script
#   then builds the addon from source (the addon alone, no tests); a damaged source build is
#   replaced by `npm rebuild @kreplay/native`.
# Vitest 5 needs Node.js >= 22.12: KREPLAY_VITEST5_NODE names that node binary (default: `node`).
# Run from the repository root after `pnpm install`; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
vitest5_node=$(command -v "${KREPLAY_VITEST5_NODE:-node}")
work=$(mktemp -d "${TMPDIR:-/tmp}/kreplay-install-test.XXXXXX")
say() { echo "test-install: $*"; }
fail() { echo "test-install: FAILED: $*" >&2; exit 1; }

pnpm build > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail 'pnpm build'; }
for package in native tracker snapshot replay bench cli; do
  (cd "packages/$package" && pnpm pack --pack-destination "$work/tarballs" > "$work/pack-$package.log" 2>&1) ||
    { cat "$work/pack-$package.log"; fail "pnpm pack of @kreplay/$package"; }
done
folder=$(node -p 'process.platform + "-" + process.arch')
prebuild="prebuilds/$folder/kreplay.napi.glibc.node"

# What the tarballs hold.
for tarball in "$work"/tarballs/*.tgz; do
  tar -tzf "$tarball" | sort > "$tarball.list"
  grep -qx 'package/LICENSE' "$tarball.list" || fail "$tarball has no LICENSE"
  tar -xOzf "$tarball" package/package.json | node -e '
    const json = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const missing = ["repository.url", "repository.directory", "homepage", "bugs.url", "keywords", "license"]
      .filter((key) => key.split(".").reduce((value, part) => value?.[part], json) === undefined);
    if (missing.length > 0) { console.error(`${json.name} lacks ${missing.join(", ")}`); process.exit(1); }
    if (JSON.stringify(json).includes("workspace:")) { console.error(`${json.name} still names workspace: versions`); process.exit(1); }
  ' || fail "$tarball: package.json"
done
native_list=$(ls "$work"/tarballs/kreplay-native-*.tgz.list)
for needed in "$prebuild" "${prebuild%.node}.json" "prebuilds/$folder/libkreplay-capture.glibc.so" CMakeLists.txt \
  scripts/install.mjs scripts/build-addon.mjs src/capture/inject/cupti-capture-glue.cpp src/binding/addon.cpp src/drivers/hsa/hsa.cmake src/kernels-amdgpu/embed-code-objects.cmake dist/binding-probe.js; do
  grep -qx "package/$needed" "$native_list" || fail "the native tarball lacks $needed"
done
if grep -E '^package/(build|test|scripts/gpu-runner|src/test)/|/test/|__fixtures__|\.test\.ts$' "$native_list"; then
  fail 'the native tarball holds the build folder, tests or development files listed above'
fi
say "tarballs: $(ls "$work"/tarballs/*.tgz | wc -l) packages, the native one with $prebuild"

# A user's project, outside the workspace, depending on the tarballs only.
app="$work/app"
mkdir -p "$app"
node -e '
  const fs = require("fs");
  const dir = process.argv[1];
  const deps = {};
  for (const file of fs.readdirSync(`${dir}/tarballs`).filter((f) => f.endsWith(".tgz"))) {
    deps[`@kreplay/${file.replace(/^kreplay-(.+)-\d+\.\d+\.\d+\.tgz$/, "$1")}`] = `file:../tarballs/${file}`;
  }
  fs.writeFileSync(`${dir}/app/package.json`, JSON.stringify(
    { name: "kreplay-install-test", private: true, type: "module", dependencies: deps, overrides: deps }, null, 2));
' "$work"
cp "$root/.ci/install-test/"*.mjs "$app/"
cd "$app"
npm install --no-audit --no-fund --foreground-scripts vitest@4 > install.log 2>&1 || { cat install.log; fail 'npm install'; }
grep -q "\[native\] \[install\] using a prebuild: .*$prebuild" install.log ||
  { cat install.log; fail 'the install did not keep the prebuild'; }
test ! -e node_modules/@kreplay/native/build || fail 'the install built from source although the prebuild fits'
node use-packages.mjs | tee use.log
grep -q "loaded from a prebuild" use.log || fail 'the addon did not load from the prebuild'
npx kreplay info --driver host --json | node -e 'const info = JSON.parse(require("fs").readFileSync(0, "utf8")); if (!JSON.stringify(info).includes("host")) process.exit(1)' ||
  fail 'kreplay info'
say 'installed with npm: the prebuild loads, the packages import, the host driver and the CLI run'

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
echo 'not an addon' > "$native/$prebuild"
if node use-packages.mjs > damaged.log 2>&1; then fail 'a damaged prebuild loaded'; fi
for expected in 'did not load' 'the source build: ' 'does not exist' 'npm rebuild @kreplay/native' 'cmake >= 3.19'; do
  grep -qF "$expected" damaged.log || { cat damaged.log; fail "the load error does not say: $expected"; }
done
(cd "$native" && node scripts/install.mjs) > source-build.log 2>&1 || { cat source-build.log; fail 'the source build'; }
grep -q 'no addon loads here' source-build.log || { cat source-build.log; fail 'the install script did not see the damage'; }
test ! -e "$native/build/tests" || fail 'the source build at install built the tests too'
test -s "$native/build/Release/libkreplay-capture.so" || fail 'the source build at install did not build libkreplay-capture.so'
node use-packages.mjs | grep -q 'loaded from the source build' || fail 'the source build does not load'
say 'a damaged prebuild: the error names the fix, and the install script built the addon (alone) from source'

# A damaged source build: `npm rebuild` really rebuilds.
echo 'not an addon' > "$native/build/Release/kreplay.node"
npm rebuild @kreplay/native --foreground-scripts > rebuild.log 2>&1 || { cat rebuild.log; fail 'npm rebuild'; }
grep -q 'building from source, as asked' rebuild.log || { cat rebuild.log; fail 'npm rebuild did not ask for a build'; }
node use-packages.mjs | grep -q 'loaded from the source build' || { cat rebuild.log; fail 'npm rebuild left the damaged addon'; }
say 'npm rebuild @kreplay/native replaced a damaged kreplay.node'

cd "$root"
rm -rf "$work"
say 'passed'
