export * from './calls.ts';
export * from './codes.ts';
export * from './content.ts';
export * from './envelope.ts';
export * from './languages.ts';
export * from './messages/index.ts';
export * from './money.ts';
export * from './openapi.ts';
