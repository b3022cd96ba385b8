import { Type } from 'typebox';

export const QuestionRequest = Type.Object(
  {
    question: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'The question in plain language (English)',
    }),
    timeZone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'IANA time zone the relative dates are read in ("since Monday", "yesterday"); default UTC',
      }),
    ),
  },
  { additionalProperties: false },
);

const Citation = Type.Object({
  type: Type.String({
    description: 'The kind of record: repository, exposure, vulnerability, ...',
  }),
  id: Type.String(),
  path: Type.String({ description: 'The API path that returns the record' }),
});

const Choice = Type.Object({
  label: Type.String(),
  question: Type.String({ description: 'Send this question to get the answer for this choice' }),
});

export const QuestionAnswer = Type.Object({
  question: Type.String(),
  kind: Type.Union([Type.Literal('answer'), Type.Literal('clarification')], {
    description: '`clarification`: the question named something ambiguous; pick a choice',
  }),
  answer: Type.String({ description: 'The answer (or the question asked back) in words' }),
  intent: Type.Object({
    name: Type.String(),
    parameters: Type.Object({}, { additionalProperties: true }),
  }),
  rows: Type.Array(Type.Object({}, { additionalProperties: true }), {
    description: 'The structured result the answer is computed from',
  }),
  citations: Type.Array(Citation),
  choices: Type.Array(Choice, { description: 'Empty unless kind is clarification' }),
  model: Type.Object(
    {
      translated: Type.Boolean({
        description: 'The optional model placed the question (the parser could not)',
      }),
      phrased: Type.Boolean({
        description: 'The optional model worded the answer (its numbers checked against the rows)',
      }),
    },
    { description: 'What the optional model did; both false without one' },
  ),
  timeZone: Type.String(),
  answeredAtUtc: Type.String({ format: 'date-time' }),
});
