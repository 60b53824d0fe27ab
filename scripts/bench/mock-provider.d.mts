// Types of mock-provider.mjs (for the TypeScript test files that start it).

/** A running mock provider. */
export interface BenchMockProvider {
  url: string;
  close(): Promise<void>;
}
export declare function startMockProvider(options?: { latencyMs?: number; streamChunks?: number }): Promise<BenchMockProvider>;
