// Imports one file with speedscope's own importer, as its UI does when a user opens the file, and prints
// what the UI would show, one item per line (read by Speedscope.java):
//   log TEXT | warn TEXT | error TEXT      what the importer said on the console
//   profile NAME<TAB>TOTAL_WEIGHT<TAB>UNIT one per profile (speedscope: one per thread of a Trace Event file)
//   frame NAME<TAB>TOTAL_WEIGHT<TAB>SELF   the frames of the profile above
//   result none                            the importer recognised no format (the UI says it cannot import)
// Usage: node speedscope-import.cjs SPEEDSCOPE_BUNDLE.js FILE
//
// The npm package ships only its browser bundle (dist/release/speedscope-*.js), one closure with no exports.
// The bundle's own entry point for opening a file is the module behind the promise that the UI awaits
// (`(await X).importProfileGroupFromText(...)`); one statement is inserted after that promise's declaration
// to hand it out. The rest of the bundle runs unchanged with the few browser globals its start-up reads;
// its last statement, rendering the UI into document.body, fails without a DOM after everything is defined.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const [bundlePath, input] = process.argv.slice(2);
let src = fs.readFileSync(bundlePath, 'utf8');
const declaration = /var (\w+)=Promise\.resolve\(\)\.then\(\(\)=>\(\w+\(\),\w+\)\);/g;
let hook = null;
for (let m; (m = declaration.exec(src)) !== null;) {
  if (src.includes(`(await ${m[1]}).importProfileGroupFromText(`)) {
    hook = m;
  }
}
if (hook === null) {
  console.log('error this speedscope bundle has no recognisable import module (a version this script does not know)');
  process.exit(3);
}
const at = hook.index + hook[0].length;
src = src.slice(0, at) + `globalThis.__jetwSpeedscopeImport=${hook[1]};` + src.slice(at);

const line = s => String(s).replace(/[\t\r\n]+/g, ' ');
const said = (kind) => (...args) => process.stdout.write(kind + ' ' + line(args.map(a => a instanceof Error ? a.message : String(a)).join(' ')) + '\n');

globalThis.window = globalThis;
globalThis.location = {hash: '', search: '', href: 'file:///speedscope/index.html', protocol: 'file:', pathname: '/speedscope/index.html'};
const quiet = () => {};
console.log = quiet; // the bundle's start-up banner
try {
  vm.runInThisContext(src, {filename: bundlePath});
} catch (e) {
  if (!(e instanceof ReferenceError && /document/.test(e.message))) {
    process.stdout.write('error loading the bundle: ' + line(e.stack) + '\n');
    process.exit(3);
  }
}
if (!globalThis.__jetwSpeedscopeImport) {
  process.stdout.write('error the bundle stopped before its import module was declared\n');
  process.exit(3);
}

(async () => {
  const importer = await globalThis.__jetwSpeedscopeImport;
  console.log = said('log');
  console.info = said('log');
  console.warn = said('warn');
  console.error = said('error');
  const bytes = fs.readFileSync(input);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const group = await importer.importProfilesFromArrayBuffer(path.basename(input), buffer);
  if (group == null) {
    process.stdout.write('result none\n');
    return;
  }
  for (const profile of group.profiles) {
    process.stdout.write(`profile ${line(profile.getName())}\t${profile.getTotalWeight()}\t${profile.getWeightUnit()}\n`);
    profile.forEachFrame(f => process.stdout.write(`frame ${line(f.name)}\t${f.getTotalWeight()}\t${f.getSelfWeight()}\n`));
  }
})().catch(e => {
  process.stdout.write('error ' + line(e && e.stack || e) + '\n');
  process.exit(2);
});
