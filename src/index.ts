/** Scribe as a library: generate and validate Playwright specs, read the statistics. */
export * from './contracts.ts';
export { Scribe, NO_CODE_RULE, type Candidate, type GenerationRequest, type PriorAttempt, type ScribeOptions, type ScribeProgress } from './agents/scribe.ts';
export { slugify, specPath, provenancePath, Provenance, SpecExistsError } from './agents/scribe-files.ts';
export { Validator, type FileValidation, type FixResult, type ValidatorOptions } from './validate/validator.ts';
export { loadCriticConfig, type CriticConfig } from './config/critic.ts';
export { loadScribeConfig, type ScribeConfig } from './config/scribe.ts';
export { ConfigError } from './config/load.ts';
export { OpenAIProvider, ModelCallError } from './llm/client.ts';
export { createProvider, chooseProviderName, ProviderSetupError, type ProviderName } from './llm/provider.ts';
export { extractCode } from './llm/extract.ts';
export type { ChatMessage, Completion, CompletionRequest, ModelProvider, TokenUsage } from './llm/types.ts';
export { computeStats, readStats, StatsDocument, StatsEvent, StatsLog, statsHome } from './stats/index.ts';
export { generateSpec, type GenerateRequest, type PipelineEvent, type PipelineOptions, type PipelineResult } from './workflow/pipeline.ts';
export { runSpec, type RunSpecOptions } from './agents/runner.ts';
export { Critic } from './agents/critic.ts';
export { Medic } from './agents/medic.ts';
export { findWeakening } from './agents/assertions.ts';
