import * as v from 'valibot';
import { isJsonObject } from './json.js';
import { MetaSchema } from './meta.js';
import { resultEntries } from './result.js';

const labelEntries = { title: v.optional(v.string()), description: v.optional(v.string()) };
const OptionSchema = v.looseObject({ const: v.string(), title: v.string() });

/** A free-text field; `format` is a rendering hint (`email`, `uri`, `date`, `date-time`). */
export const StringSchemaSchema = v.looseObject({
  type: v.literal('string'),
  ...labelEntries,
  minLength: v.optional(v.number()),
  maxLength: v.optional(v.number()),
  format: v.optional(v.string()),
  default: v.optional(v.string()),
});

/** A number or integer field. */
export const NumberSchemaSchema = v.looseObject({
  type: v.picklist(['number', 'integer']),
  ...labelEntries,
  minimum: v.optional(v.number()),
  maximum: v.optional(v.number()),
  default: v.optional(v.number()),
});

/** A yes/no field. */
export const BooleanSchemaSchema = v.looseObject({
  type: v.literal('boolean'),
  ...labelEntries,
  default: v.optional(v.boolean()),
});

/** Single choice from `enum`; `enumNames` is the 2025-06-18 way to label them, still accepted. */
export const UntitledSingleSelectEnumSchemaSchema = v.looseObject({
  type: v.literal('string'),
  ...labelEntries,
  enum: v.array(v.string()),
  enumNames: v.optional(v.array(v.string())),
  default: v.optional(v.string()),
});

/** Single choice with a label per option (2025-11-25+). */
export const TitledSingleSelectEnumSchemaSchema = v.looseObject({
  type: v.literal('string'),
  ...labelEntries,
  oneOf: v.array(OptionSchema),
  default: v.optional(v.string()),
});

const multiSelectEntries = {
  type: v.literal('array'),
  ...labelEntries,
  minItems: v.optional(v.number()),
  maxItems: v.optional(v.number()),
  default: v.optional(v.array(v.string())),
};

/** Several choices from `items.enum` (2025-11-25+). */
export const UntitledMultiSelectEnumSchemaSchema = v.looseObject({
  ...multiSelectEntries,
  items: v.looseObject({ type: v.literal('string'), enum: v.array(v.string()) }),
});

/** Several choices, each labelled, from `items.anyOf` (2025-11-25+). */
export const TitledMultiSelectEnumSchemaSchema = v.looseObject({
  ...multiSelectEntries,
  items: v.looseObject({ anyOf: v.array(OptionSchema) }),
});

const hasKey = (input: unknown, key: string): boolean => isJsonObject(input) && key in input;

/**
 * One field of an elicitation form: the flat, primitive-only subset of JSON
 * Schema the spec allows (2025-06-18+; enums extended in 2025-11-25). The shape
 * is picked from `type` and the enum keyword present, so issues name the bad
 * field; any other `type` is rejected at `type`, as no form could render it.
 */
export const PrimitiveSchemaDefinitionSchema = v.lazy((input) => {
  const type = isJsonObject(input) ? input.type : undefined;
  if (type === 'string') {
    if (hasKey(input, 'oneOf')) return TitledSingleSelectEnumSchemaSchema;
    return hasKey(input, 'enum') ? UntitledSingleSelectEnumSchemaSchema : StringSchemaSchema;
  }
  if (type === 'array') {
    const items = isJsonObject(input) ? input.items : undefined;
    return hasKey(items, 'anyOf') ? TitledMultiSelectEnumSchemaSchema : UntitledMultiSelectEnumSchemaSchema;
  }
  return type === 'boolean' ? BooleanSchemaSchema : NumberSchemaSchema;
});
/** The output type of {@link PrimitiveSchemaDefinitionSchema}: a value it parsed. */
export type PrimitiveSchemaDefinition = v.InferOutput<typeof PrimitiveSchemaDefinitionSchema>;

/** The form a server asks for: an object schema of primitive properties, extra keywords kept. */
export const ElicitRequestedSchemaSchema = v.looseObject({
  $schema: v.optional(v.string()),
  type: v.literal('object'),
  properties: v.record(v.string(), PrimitiveSchemaDefinitionSchema),
  required: v.optional(v.array(v.string())),
});
/** The output type of {@link ElicitRequestedSchemaSchema}: a value it parsed. */
export type ElicitRequestedSchema = v.InferOutput<typeof ElicitRequestedSchemaSchema>;

/** Form mode: in-band answers to `requestedSchema`. `mode` may be absent, which means form. */
export const ElicitRequestFormParamsSchema = v.looseObject({
  mode: v.optional(v.literal('form')),
  message: v.string(),
  requestedSchema: ElicitRequestedSchemaSchema,
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link ElicitRequestFormParamsSchema}: a value it parsed. */
export type ElicitRequestFormParams = v.InferOutput<typeof ElicitRequestFormParamsSchema>;

/**
 * URL mode (2025-11-25+): the user visits `url` out of band, after consent.
 * `elicitationId` exists only in 2025-11-25 (matched by `notifications/elicitation/complete`).
 */
export const urlParamsEntries = {
  mode: v.literal('url'),
  message: v.string(),
  // URL.canParse over v.url(): the same WHATWG parse, one less validator in every bundle.
  url: v.pipe(
    v.string(),
    v.check((url) => URL.canParse(url), 'Invalid URL'),
  ),
  elicitationId: v.optional(v.string()),
  _meta: v.optional(MetaSchema),
};
/** `elicitation/create` params in URL mode (2025-11-25+): the user visits `url` out of band, after consent. */
export const ElicitRequestUrlParamsSchema = v.looseObject({ ...urlParamsEntries });
/** The output type of {@link ElicitRequestUrlParamsSchema}: a value it parsed. */
export type ElicitRequestUrlParams = v.InferOutput<typeof ElicitRequestUrlParamsSchema>;

/** `data` of the `UrlElicitationRequired` error (-32042, 2025-11-25): URL-mode requests, each with its `elicitationId`. */
export const UrlElicitationRequiredErrorDataSchema = v.looseObject({
  elicitations: v.array(v.looseObject({ ...urlParamsEntries, elicitationId: v.string() })),
});
/** The output type of {@link UrlElicitationRequiredErrorDataSchema}: a value it parsed. */
export type UrlElicitationRequiredErrorData = v.InferOutput<typeof UrlElicitationRequiredErrorDataSchema>;

/** `elicitation/create` params: `mode: "url"` selects URL mode; anything else is validated as a form. */
export const ElicitRequestParamsSchema = v.lazy((input) =>
  isJsonObject(input) && input.mode === 'url' ? ElicitRequestUrlParamsSchema : ElicitRequestFormParamsSchema,
);
/** `elicitation/create` params: a form, or (`mode: "url"`) a URL to visit. */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestUrlParams;

/** A submitted form value: string, number, boolean, or (2025-11-25+ multi-select) a string list. */
export const ElicitValueSchema = v.union([v.string(), v.number(), v.boolean(), v.array(v.string())]);

/**
 * The user's answer. `content` only with `accept` in form mode; URL-mode `accept`
 * means "agreed to open the URL", not "finished".
 */
export const ElicitResultSchema = v.looseObject({
  ...resultEntries,
  action: v.picklist(['accept', 'decline', 'cancel']),
  content: v.optional(v.record(v.string(), ElicitValueSchema)),
});
/** The output type of {@link ElicitResultSchema}: a value it parsed. */
export type ElicitResult = v.InferOutput<typeof ElicitResultSchema>;

/** `notifications/elicitation/complete` (2025-11-25 only): ignore unknown or finished ids. */
export const ElicitationCompleteNotificationParamsSchema = v.looseObject({
  elicitationId: v.string(),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link ElicitationCompleteNotificationParamsSchema}: a value it parsed. */
export type ElicitationCompleteNotificationParams = v.InferOutput<typeof ElicitationCompleteNotificationParamsSchema>;
