/**
 * Which fields of the tools' data hold money (paisa), read from the tools' own schemas: their
 * inputs, their outputs, and the cards a preview shows. The number guard reads such a field as
 * money only (the answer says points, paisa / 100), never as a plain number whose digits an answer
 * may repeat, so paisa shown as points (100× too big) is caught. A new field built from `paisa`
 * or `paisaInput` is known the day it is declared, with no list of names to keep.
 */
import type { z } from 'zod';
import { moneySchemas } from '../../shared/contracts/bounds.js';
import { cardSchema } from '../../shared/contracts/assistant.js';
import { TOOL_MODULES } from './index.js';

type Schema = z.core.$ZodType;

/**
 * The field names of `schemas` that hold paisa wherever they stand. A name that is money in one
 * schema and a plain number in another (`value`: a market's value in paisa, a threshold in its
 * column's own unit) is left out: its numbers are read both ways.
 */
export function moneyFields(schemas: readonly Schema[]): Set<string> {
  const kinds = new Map<string, Set<'money' | 'plain'>>();
  const seen = new Set<Schema>();
  const walk = (schema: Schema, field: string | null): void => {
    const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
    if (def.type === 'number') {
      if (field !== null) kinds.set(field, (kinds.get(field) ?? new Set()).add(moneySchemas.get(schema) ? 'money' : 'plain'));
      return;
    }
    switch (def.type) {
      case 'object':
        // An object names its own fields, so one used in several places is walked once.
        if (seen.has(schema)) return;
        seen.add(schema);
        for (const [name, inner] of Object.entries(def.shape as Record<string, Schema>)) walk(inner, name);
        return;
      // The rest hold what stands at the field they are at: a list of paisa is money as the field is.
      case 'array':
        return walk(def.element as Schema, field);
      case 'optional': case 'nullable': case 'default': case 'prefault': case 'readonly': case 'catch': case 'nonoptional':
        return walk(def.innerType as Schema, field);
      case 'union':
        for (const option of def.options as Schema[]) walk(option, field);
        return;
      case 'intersection':
        walk(def.left as Schema, field);
        return walk(def.right as Schema, field);
      case 'record':
        // A record's keys are data, not field names.
        return walk(def.valueType as Schema, null);
      case 'pipe':
        walk(def.in as Schema, field);
        return walk(def.out as Schema, field);
      case 'lazy':
        if (seen.has(schema)) return;
        seen.add(schema);
        return walk((def.getter as () => Schema)(), field);
      default:
    }
  };
  for (const schema of schemas) walk(schema, null);
  return new Set([...kinds].filter(([, k]) => k.size === 1 && k.has('money')).map(([name]) => name));
}

/** The fields of every tool's arguments, data and preview card that hold paisa. */
export const MONEY_FIELDS: ReadonlySet<string> = moneyFields([...TOOL_MODULES.flatMap((m) => [m.input, m.output]), cardSchema]);
