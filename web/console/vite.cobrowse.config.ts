import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";

// The co-browse recorder (src/widget/cobrowse.ts) that the site chat widget loads on a
// visitor's page when monitoring starts: one classic script defining the global
// SiteChatCobrowse (an IIFE, since the widget adds it with a <script> tag on any site),
// under a stable name next to the widget. Built after the console (npm run build) into
// dist/site-chat/, which the binary embeds and serves at /site-chat/cobrowse.js, with a
// gzip copy as the console's scripts have.
export default defineConfig({
  plugins: [compression({ algorithms: ["gzip"], include: /\.js$/ })],
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    outDir: "dist/site-chat",
    emptyOutDir: true,
    sourcemap: false,
    // The widget's own language level: visitors' browsers are not the console's.
    target: "es2017",
    lib: { entry: "src/widget/cobrowse.ts", name: "SiteChatCobrowse", formats: ["iife"], fileName: () => "cobrowse.js" },
  },
});
