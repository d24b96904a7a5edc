// The few parts of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  export interface Options {
    url: string;
    method?: 'GET' | 'POST';
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Percentiles {
    average: number;
    mean: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }
  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    latency: Percentiles;
    requests: Percentiles & { total: number; sent: number };
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
