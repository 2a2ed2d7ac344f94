// The config form's validator: the one compiled at build time for this schema
// (compile-validators.mjs), found by the hash of the schema without its texts.
import { hashForSchema, type RJSFSchema, type ValidatorType } from "@rjsf/utils";
// The module itself, not the package's index, whose default export is ajv's run-time compiler.
import createPrecompiledValidator from "@rjsf/validator-ajv8/lib/createPrecompiledValidator.js";
import { checkedSchema } from "./formSchema";
import { validateFns } from "./validators.gen";

const made = new Map<string, ValidatorType>();

/**
 * validatorFor is the precompiled validator of a form schema, or undefined when this build
 * has none for it: the server's catalog changed after the console was built. The form then
 * leaves checking to the server's diagnostics.
 */
export function validatorFor(schema: RJSFSchema): ValidatorType | undefined {
  const root = checkedSchema(schema);
  const hash = hashForSchema(root);
  if (!(hash in validateFns)) return undefined;
  let validator = made.get(hash);
  if (!validator) {
    validator = withoutTexts(createPrecompiledValidator(validateFns, root));
    made.set(hash, validator);
  }
  return validator;
}

/** withoutTexts hands the validator the schemas the form asks about as it was compiled:
 * without their texts, in whatever language the form shows them. */
function withoutTexts(inner: ValidatorType): ValidatorType {
  return {
    validateFormData: (formData, schema, customValidate, transformErrors, uiSchema) =>
      inner.validateFormData(formData, checkedSchema(schema), customValidate, transformErrors, uiSchema),
    isValid: (schema, formData, rootSchema) => inner.isValid(checkedSchema(schema), formData, checkedSchema(rootSchema)),
    rawValidation: (schema, formData) => inner.rawValidation(checkedSchema(schema), formData),
  };
}

/** uncheckedValidator finds nothing wrong; used only where no validator was compiled. */
export const uncheckedValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: [] }),
};
