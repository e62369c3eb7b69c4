'use client';
import { ERROR_CLASS_INFO, ERROR_CLASSES } from '@/lib/domain/deliveries/error-classes';
import { Select } from '../ui/field';

/** The error classes as a choice: a class typed by hand could be misspelled and silently match nothing.
 * A value from an old link that is not a class stays selected, so the filter in the URL is visible. */
export function ErrorClassSelect({
  value,
  onChange,
  ariaLabel = 'Error class',
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  ariaLabel?: string;
}) {
  const known = !value || (ERROR_CLASSES as readonly string[]).includes(value);
  return (
    <Select aria-label={ariaLabel} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
      <option value="">Any error class</option>
      {ERROR_CLASSES.map((errorClass) => (
        <option key={errorClass} value={errorClass} title={ERROR_CLASS_INFO[errorClass]}>
          {errorClass}
        </option>
      ))}
      {known ? null : <option value={value}>{value} (not an error class)</option>}
    </Select>
  );
}
