'use client';
import { Field } from '../ui/field';
import { TextFilter } from './text-filter';

/** One text filter as a labelled field: the URL parameter it sets, and how it reads. */
export interface TextFilterSpec<Name extends string> {
  name: Name;
  /** The field's visible label. */
  field: string;
  /** The input's accessible name, shorter than the field's label where that explains more. */
  label: string;
  placeholder?: string;
  numeric?: boolean;
  hint?: string;
}

type FilterValues<Name extends string> = Partial<Record<Name, string | undefined>>;

/** The text filters of a filter panel, in the order given; a committed value goes to `onCommit`. */
export function TextFilterFields<Name extends string>({
  specs,
  values,
  onCommit,
}: {
  specs: readonly TextFilterSpec<Name>[];
  values: FilterValues<Name>;
  onCommit: (change: FilterValues<Name>) => void;
}) {
  return (
    <>
      {specs.map((spec) => (
        <Field key={spec.name} label={spec.field} hint={spec.hint}>
          <TextFilter
            label={spec.label}
            placeholder={spec.placeholder}
            inputMode={spec.numeric ? 'numeric' : undefined}
            value={values[spec.name]}
            onCommit={(value) => onCommit({ [spec.name]: value } as FilterValues<Name>)}
          />
        </Field>
      ))}
    </>
  );
}
