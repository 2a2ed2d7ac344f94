// The config form's validator: the one compiled at build time for this schema
// (compile-validators.mjs), found by the schema's hash.
import { hashForSchema, type RJSFSchema, type ValidatorType } from "@rjsf/utils";
// The module itself, not the package's index, whose default export is ajv's run-time compiler.
import createPrecompiledValidator from "@rjsf/validator-ajv8/lib/createPrecompiledValidator.js";
import { validateFns } from "./validators.gen";

const made = new Map<string, ValidatorType>();

/**
 * validatorFor is the precompiled validator of a form schema, or undefined when this build
 * has none for it: the server's catalog changed after the console was built. The form then
 * leaves checking to the server's diagnostics.
 */
export function validatorFor(schema: RJSFSchema): ValidatorType | undefined {
  const hash = hashForSchema(schema);
  if (!(hash in validateFns)) return undefined;
  let validator = made.get(hash);
  if (!validator) {
    validator = createPrecompiledValidator(validateFns, schema);
    made.set(hash, validator);
  }
  return validator;
}

/** uncheckedValidator finds nothing wrong; used only where no validator was compiled. */
export const uncheckedValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: [] }),
};
