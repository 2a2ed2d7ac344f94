import { describe, expect, it } from "vitest";
import { createSchemaUtils, type RJSFSchema } from "@rjsf/utils";
import { schemaValidator, type SchemaErrorText } from "./schemaValidator";

const dir = "../../../../../schemas/dependencies/";
const files = import.meta.glob<RJSFSchema>("../../../../../schemas/dependencies/*.json", { eager: true, import: "default" });
const load = (name: string) => files[dir + name];
const text: SchemaErrorText = (key, values) => (values.limit === undefined ? key : `${key} ${values.limit}`);

describe("schemaValidator", () => {
  it("names each missing and each bad field of a type's schema", () => {
    const smtp = load("smtp.server.metadata.json");
    const { errors } = schemaValidator(smtp, text).validateFormData({ host: "mail example", port: 70000 }, smtp);
    expect(errors.map((e) => [e.property, e.message])).toEqual(
      expect.arrayContaining([
        [".from", "required"],
        [".port", "maximum 65535"],
        [".host", "example"],
      ]),
    );
  });

  it("words a value the chosen branch forbids, and a missing one it requires", () => {
    const auth = load("http.auth.auth.json");
    const { errors } = schemaValidator(auth, text).validateFormData({ scheme: "basic", token: "t" }, auth);
    expect(errors.map((e) => [e.property, e.message]).sort()).toEqual([
      [".password", "required"],
      [".token", "notUsed"],
      [".username", "required"],
    ]);
  });

  it("words a pattern by the field's example where the schema gives one", () => {
    const provider = load("ai.model_provider.metadata.json");
    const words: SchemaErrorText = (key, values) => `${key} ${values.example ?? values.limit ?? ""}`.trim();
    const { errors } = schemaValidator(provider, words).validateFormData({ base_url: "ftp://nowhere" }, provider);
    expect(errors.find((e) => e.property === ".base_url")?.message).toBe("example https://api.openai.com/v1");
  });

  it("words a choice of forms by the field's example", () => {
    const bot = load("messenger_a.bot.metadata.json");
    const words: SchemaErrorText = (key, values) => `${key} ${values.example ?? ""}`.trim();
    const { errors } = schemaValidator(bot, words).validateFormData({ api_base_url: "ftp://nowhere" }, bot);
    expect(errors.map((e) => [e.property, e.message])).toEqual([[".api_base_url", "example https://bot-api.example.com"]]);
  });

  it("finds nothing wrong with valid data", () => {
    const bot = load("messenger_a.bot.auth.json");
    expect(schemaValidator(bot, text).validateFormData({ bot_token: "123:abc" }, bot).errors).toEqual([]);
  });

  it("lets rjsf take the branch of an if/then the data chooses", () => {
    const auth = load("http.auth.auth.json");
    const utils = createSchemaUtils(schemaValidator(auth, text), auth);
    const basic = utils.retrieveSchema(auth, { scheme: "basic" });
    expect(basic.required).toEqual(expect.arrayContaining(["username", "password"]));
    expect(basic.properties?.token).toBe(false);
  });
});
