import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A directory shaped like the web app's Vite build: `index.html`, a hashed asset and a root file. */
export function createFakeWebBuild(): { root: string; indexHtml: string; assetPath: string; assetBody: string; remove(): void } {
  const root = mkdtempSync(path.join(tmpdir(), "dashboard-web-build-"));
  const indexHtml = '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
  const assetBody = "console.log('dashboard');";
  writeFileSync(path.join(root, "index.html"), indexHtml);
  mkdirSync(path.join(root, "assets"));
  writeFileSync(path.join(root, "assets", "index-Ab12Cd34.js"), assetBody);
  writeFileSync(path.join(root, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  return { root, indexHtml, assetPath: "/assets/index-Ab12Cd34.js", assetBody, remove: () => rmSync(root, { recursive: true, force: true }) };
}
