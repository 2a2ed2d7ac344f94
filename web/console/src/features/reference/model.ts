// The API reference as the page reads it: the contract (schemas/openapi.yaml) reshaped at
// build time by compile-reference.mjs into reference.gen.ts. Parameters, responses and
// headers the contract shares by $ref are written out in place; schemas keep their
// "#/components/schemas/Name" references, which the page opens on demand, since some
// schemas contain themselves.

/** Schema is a JSON Schema of the contract, as written there. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
};

/** Marks are the contract's extensions of OpenAPI: ours beyond the specification, its
 * preview operations, its future one. */
export type Mark = "extension" | "preview" | "future";

export type Parameter = { name: string; in: string; required: boolean; description: string; schema?: Schema; extension: boolean };

export type Content = { mediaType: string; schema?: Schema; example?: unknown };

export type Header = { name: string; description: string; schema?: Schema };

export type RequestBody = { required: boolean; description: string; contents: Content[] };

/** Response is one status of an operation; problem says its body is the Problem. */
export type Response = { status: string; description: string; problem: boolean; headers: Header[]; contents: Content[] };

export type Operation = {
  id: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  description: string;
  marks: Mark[];
  /** auth names the security schemes any one of which the operation takes; empty when public. */
  auth: string[];
  parameters: Parameter[];
  requestBody?: RequestBody;
  responses: Response[];
};

export type Tag = { name: string; description: string; operations: Operation[] };

export type SecurityScheme = { key: string; title: string; description: string };

export type Reference = {
  title: string;
  version: string;
  description: string;
  /** commonHeaders are carried by every response; the page names them once, not per status. */
  commonHeaders: Header[];
  securitySchemes: SecurityScheme[];
  tags: Tag[];
  schemas: Record<string, Schema>;
};
