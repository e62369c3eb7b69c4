'use client';
import { Field, Select } from '../ui/field';
import { TextFilterFields, type TextFilterSpec } from './text-filter-fields';

export const PAYLOAD_SEARCH_NAMES = ['search', 'payloadPath', 'payloadValue', 'payloadMatch'] as const;
type PayloadSearchName = (typeof PAYLOAD_SEARCH_NAMES)[number];
type PayloadSearchValues = Partial<Record<PayloadSearchName, string | undefined>>;

const TEXT_FIELDS: readonly TextFilterSpec<PayloadSearchName>[] = [
  {
    name: 'search',
    field: 'Search payload',
    label: 'Search payload',
    placeholder: 'any text in the body',
    hint: 'Any range; searches back in steps, newest first',
  },
  { name: 'payloadPath', field: 'Payload field', label: 'Payload field', placeholder: 'e.g. customer.id' },
  { name: 'payloadValue', field: 'Payload value', label: 'Payload value', placeholder: 'e.g. cus_42 or 42 or "42"' },
];

/** The payload search of a filter panel (messages and deliveries, dashboard and portal alike). */
export function PayloadSearchFields({
  values,
  onCommit,
}: {
  values: PayloadSearchValues;
  onCommit: (change: PayloadSearchValues) => void;
}) {
  return (
    <>
      <TextFilterFields specs={TEXT_FIELDS} values={values} onCommit={onCommit} />
      <Field label="Field match">
        <Select
          aria-label="Field match"
          value={values.payloadMatch ?? 'equals'}
          onChange={(e) => onCommit({ payloadMatch: e.target.value === 'equals' ? undefined : e.target.value })}
        >
          <option value="equals">equals (JSON value)</option>
          <option value="contains">contains (text, any case)</option>
        </Select>
      </Field>
    </>
  );
}
