// The config form's validator: the one compiled at build time for this schema
// (compile-validators.mjs), found by the hash of the schema without its texts, so that it
// serves the schema in every language the catalog speaks.
import { hashForSchema, type RJSFSchema, type ValidatorType } from "@rjsf/utils";
// The module itself, not the package's index, whose default export is ajv's run-time compiler.
import createPrecompiledValidator from "@rjsf/validator-ajv8/lib/createPrecompiledValidator.js";
import { withoutTexts } from "./formSchema";
import { validateFns } from "./validators.gen";

const made = new Map<string, ValidatorType>();

/**
 * validatorFor is the precompiled validator of a form schema, or undefined when this build
 * has none for it: the server's catalog changed after the console was built. The form then
 * leaves checking to the server's diagnostics.
 */
export function validatorFor(schema: RJSFSchema): ValidatorType | undefined {
  const bare = withoutTexts(schema);
  const hash = hashForSchema(bare);
  if (!(hash in validateFns)) return undefined;
  let validator = made.get(hash);
  if (!validator) {
    validator = textless(createPrecompiledValidator(validateFns, bare));
    made.set(hash, validator);
  }
  return validator;
}

/** textless hands the validator every schema rjsf asks about without its texts, as it was
 * compiled. */
function textless(v: ValidatorType): ValidatorType {
  const bare = (() => {
    const seen = new WeakMap<object, RJSFSchema>();
    return (s: RJSFSchema): RJSFSchema => {
      let b = seen.get(s);
      if (!b) {
        b = withoutTexts(s);
        seen.set(s, b);
      }
      return b;
    };
  })();
  return {
    validateFormData: (formData, schema, customValidate, transformErrors, uiSchema) =>
      v.validateFormData(formData, bare(schema), customValidate, transformErrors, uiSchema),
    isValid: (schema, formData, rootSchema) => v.isValid(bare(schema), formData, bare(rootSchema)),
    rawValidation: (schema, formData) => v.rawValidation(bare(schema), formData),
  };
}

/** uncheckedValidator finds nothing wrong; used only where no validator was compiled. */
export const uncheckedValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: [] }),
};
