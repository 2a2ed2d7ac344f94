/** FieldLabel is the label of one of our config fields, marked as rjsf marks its own. */
export function FieldLabel({ id, label, required }: { id: string; label: string; required?: boolean }) {
  return (
    <label htmlFor={id}>
      {label}
      {required && <span className="required">*</span>}
    </label>
  );
}
