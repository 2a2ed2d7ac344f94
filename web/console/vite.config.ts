/// <reference types="vitest/config" />
import { writeFileSync } from "node:fs";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { compression } from "vite-plugin-compression2";

// go:embed needs web/console/dist to exist on a fresh clone, so the folder's .gitignore is
// committed; Vite empties the folder before each build, and this puts the file back.
const keepDistGitignore: Plugin = {
  name: "keep-dist-gitignore",
  closeBundle() {
    writeFileSync("dist/.gitignore", "# The build output: not committed; this file keeps the folder, which go:embed needs.\n*\n!.gitignore\n");
  },
};

export default defineConfig({
  plugins: [react(), compression({ algorithms: ["gzip"], include: /\.(js|css|svg|json)$/ }), keepDistGitignore],
  // The server puts a fresh nonce in place of the placeholder in every index.html it serves
  // (api/console.go), and allows styles carrying it: CodeMirror adds its styles in a <style>.
  html: { cspNonce: "CSP_NONCE" },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
  worker: { format: "es" },
  server: { proxy: { "/api": "http://127.0.0.1:8080" } },
  // The unit tests are pure functions of their inputs (no module mocks, no stubbed
  // globals), so they share one module graph: isolating each file re-imports it and takes
  // four times as long.
  test: { include: ["src/**/*.test.ts"], environment: "node", isolate: false },
});
