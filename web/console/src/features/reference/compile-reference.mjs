// Reshapes the contract (schemas/openapi.yaml) into the API reference page's model
// (model.ts) at build time, so the page reads no YAML and fetches nothing: the operations
// by tag in the contract's order, with the parameters, responses and headers it shares by
// $ref written out in place. Run by `npm run gen`; writes reference.gen.ts beside this file
// (not committed). The model is embedded as one JSON string (in single quotes, so its double quotes
// stay as they are), which the browser parses faster than the same object literal and the
// type checker does not walk.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import yaml from "js-yaml";

const here = dirname(fileURLToPath(import.meta.url));
const contract = yaml.load(readFileSync(join(here, "../../../../../schemas/openapi.yaml"), "utf8"));
const output = join(here, "reference.gen.ts");

const methods = ["get", "put", "post", "patch", "delete", "head", "options", "trace"];
const problemRef = "#/components/schemas/Problem";

/** resolve follows a $ref into components (parameters, responses, headers, requestBodies). */
function resolve(node) {
  let seen = 0;
  while (node && node.$ref && !node.$ref.startsWith("#/components/schemas/")) {
    if (++seen > 10) throw new Error(`compile-reference: $ref loop at ${node.$ref}`);
    const path = node.$ref.replace(/^#\//, "").split("/");
    const target = path.reduce((at, key) => at?.[key], contract);
    if (!target) throw new Error(`compile-reference: ${node.$ref} does not resolve`);
    node = target;
  }
  return node;
}

const contents = (content = {}) =>
  Object.entries(content).map(([mediaType, media]) => ({
    mediaType,
    ...(media.schema ? { schema: media.schema } : {}),
    ...(media.example !== undefined ? { example: media.example } : {}),
    ...(media.example === undefined && media.examples ? { example: Object.values(media.examples)[0]?.value } : {}),
  }));

const headersOf = (response) =>
  Object.entries(response.headers ?? {}).map(([name, h]) => {
    const header = resolve(h);
    return { name, description: header.description ?? "", ...(header.schema ? { schema: header.schema } : {}) };
  });

// The headers every response carries are named once on the page; a Problem's own two
// (X-App-Validate, X-App-Action) are part of what "Problem" means there.
const everyResponse = [];
for (const item of Object.values(contract.paths)) {
  for (const m of methods) {
    for (const r of Object.values(item[m]?.responses ?? {})) everyResponse.push(new Set(headersOf(resolve(r)).map((h) => h.name)));
  }
}
const commonNames = Object.keys(contract.components.headers).filter((name) => everyResponse.every((names) => names.has(name)));
const problemHeaders = new Set(["X-App-Validate", "X-App-Action"]);

const isProblem = (response) => Object.values(response.content ?? {}).some((media) => media.schema?.$ref === problemRef);

const defaultAuth = (contract.security ?? []).flatMap((requirement) => Object.keys(requirement));

const tags = (contract.tags ?? []).map((tag) => ({ name: tag.name, description: tag.description ?? "", operations: [] }));
const tagByName = new Map(tags.map((tag) => [tag.name, tag]));

for (const [path, item] of Object.entries(contract.paths)) {
  for (const method of methods) {
    const op = item[method];
    if (!op) continue;
    const tagName = op.tags?.[0];
    const tag = tagByName.get(tagName);
    if (!tag) throw new Error(`compile-reference: ${op.operationId} has no declared tag`);
    const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => {
      const param = resolve(p);
      return {
        name: param.name,
        in: param.in,
        required: param.required === true,
        description: param.description ?? "",
        ...(param.schema ? { schema: param.schema } : {}),
        extension: param["x-extension"] === true,
      };
    });
    const body = op.requestBody && resolve(op.requestBody);
    const responses = Object.entries(op.responses ?? {}).map(([status, r]) => {
      const response = resolve(r);
      const problem = isProblem(response);
      return {
        status,
        description: response.description ?? "",
        problem,
        headers: headersOf(response).filter((h) => !commonNames.includes(h.name) && !(problem && problemHeaders.has(h.name))),
        // A Problem's body is the one schema the page shows once, whichever of its media
        // types is asked for.
        contents: problem ? [] : contents(response.content),
      };
    });
    tag.operations.push({
      id: op.operationId,
      method: method.toUpperCase(),
      path,
      tag: tag.name,
      summary: op.summary ?? "",
      description: op.description ?? "",
      marks: ["extension", "preview", "future"].filter((mark) => op[`x-${mark}`] === true),
      auth: (op.security ?? contract.security ?? []).flatMap((requirement) => Object.keys(requirement)),
      parameters,
      ...(body ? { requestBody: { required: body.required === true, description: body.description ?? "", contents: contents(body.content) } } : {}),
      responses,
    });
  }
}

// A scheme's short name, as an operation lists the ones it takes.
const schemeTitle = (scheme) =>
  scheme.type === "http" ? `${scheme.scheme === "bearer" ? "Bearer" : scheme.scheme} token` : scheme.in === "cookie" ? `${scheme.name} cookie` : scheme.name;

const reference = {
  title: contract.info.title,
  version: contract.info.version,
  description: contract.info.description ?? "",
  commonHeaders: commonNames.map((name) => {
    const header = contract.components.headers[name];
    return { name, description: header.description ?? "", ...(header.schema ? { schema: header.schema } : {}) };
  }),
  securitySchemes: Object.entries(contract.components.securitySchemes ?? {})
    .filter(([key]) => defaultAuth.includes(key) || tags.some((t) => t.operations.some((o) => o.auth.includes(key))))
    .map(([key, scheme]) => ({ key, title: schemeTitle(scheme), description: scheme.description ?? "" })),
  tags: tags.filter((tag) => tag.operations.length > 0),
  schemas: contract.components.schemas ?? {},
};

writeFileSync(
  output,
  "// Generated by compile-reference.mjs from schemas/openapi.yaml: do not edit.\n" +
    'import type { Reference } from "./model";\n\n' +
    `export const reference: Reference = JSON.parse('${JSON.stringify(reference).replace(/[\\']/g, (c) => `\\${c}`)}');\n`,
);
