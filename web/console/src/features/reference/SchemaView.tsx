import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Content, Schema } from "./model";
import { Prose } from "./Prose";
import { reference } from "./reference.gen";
import { constraints, hasFields, mergedObject, refName, resolved, typeLabel } from "./schema";
import "./texts";

const schemas = reference.schemas;

/** Facts are a schema's type line: its type, limits and allowed values. */
function Facts({ schema }: { schema: Schema }) {
  const { t } = useTranslation("reference");
  const s = resolved(schema, schemas);
  const limits = constraints(s);
  return (
    <>
      <span className="schema-type">{typeLabel(schema) || t("anyValue")}</span>
      {limits.length > 0 && <span className="schema-limits">{limits.join(", ")}</span>}
      {s.enum && (
        <span className="schema-values">
          {t("values")}:{" "}
          {s.enum.map((v, i) => (
            <span key={i}>
              {i > 0 && ", "}
              <code>{JSON.stringify(v)}</code>
            </span>
          ))}
        </span>
      )}
    </>
  );
}

/** Unfold shows the fields of a nested value when the person opens it, so a schema that
 * contains itself is only as deep as the person goes. */
function Unfold({ schema, label }: { schema: Schema; label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="unfold" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{label}</summary>
      {open && <SchemaFields schema={schema} />}
    </details>
  );
}

/** SchemaFields lists what a value holds: an object's fields (with their type, whether
 * they are required, description and limits), an array's items, or the variants it may
 * be; a field with fields of its own unfolds on demand. */
export function SchemaFields({ schema }: { schema: Schema }) {
  const { t } = useTranslation("reference");
  const s = resolved(schema, schemas);
  if (s.items && !s.properties) return <SchemaFields schema={s.items} />;
  const variants = s.oneOf ?? s.anyOf;
  const { properties, required } = mergedObject(s, schemas);
  const names = Object.keys(properties);
  const more = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
  return (
    <div className="schema-fields">
      {names.length > 0 && (
        <ul className="fields">
          {names.map((name) => {
            const field = properties[name];
            const target = resolved(field, schemas);
            return (
              <li key={name}>
                <div className="field-head">
                  <code className="field-name">{name}</code>
                  <Facts schema={field} />
                  <span className={required.includes(name) ? "field-required" : "muted"}>{required.includes(name) ? t("required") : t("optional")}</span>
                </div>
                <Prose text={field.description ?? target.description ?? ""} className="muted" />
                {hasFields(field, schemas) && <Unfold schema={field} label={t("fieldsOf", { name: refName(field) || name })} />}
              </li>
            );
          })}
        </ul>
      )}
      {variants && (
        <div className="variants">
          <p>{t("variants")}:</p>
          <ul className="fields">
            {variants.map((variant, i) => (
              <li key={i}>
                <div className="field-head">
                  <Facts schema={variant} />
                </div>
                <Prose text={variant.description ?? resolved(variant, schemas).description ?? ""} className="muted" />
                {hasFields(variant, schemas) && <Unfold schema={variant} label={t("fieldsOf", { name: refName(variant) || typeLabel(variant) })} />}
              </li>
            ))}
          </ul>
        </div>
      )}
      {more && (
        <div className="field-head">
          <span>{t("moreFields", { type: typeLabel(more) || t("anyValue") })}</span>
          {hasFields(more, schemas) && <Unfold schema={more} label={t("fields")} />}
        </div>
      )}
    </div>
  );
}

/** exampleOf is a body's example: the media type's own, else its schema's. */
function exampleOf(content: Content): unknown {
  if (content.example !== undefined) return content.example;
  if (!content.schema) return undefined;
  const s = resolved(content.schema, schemas);
  return s.example ?? s.examples?.[0];
}

/** BodyView shows a request or response body of one media type: its schema's type, its
 * fields and its example. */
export function BodyView({ content }: { content: Content }) {
  const { t } = useTranslation("reference");
  const example = exampleOf(content);
  const schema = content.schema;
  return (
    <div className="body">
      <p className="field-head">
        <code className="media-type">{content.mediaType}</code>
        {schema && <Facts schema={schema} />}
      </p>
      {schema && refName(schema) && <Prose text={resolved(schema, schemas).description ?? ""} className="muted" />}
      {schema && hasFields(schema, schemas) && <SchemaFields schema={schema} />}
      {example !== undefined && (
        <details className="example">
          <summary>{t("example")}</summary>
          <pre>{typeof example === "string" ? example : JSON.stringify(example, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}
