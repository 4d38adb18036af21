/** The optional pinned LLM judge for open answers (§4.1); see judge-llm.ts. */

/** What the judge sees: the question, the episode's semantic rule in words, the answer. */
export interface JudgeInput {
  question: string;
  rule: string;
  answer: string;
}

/** A judge's verdict with what it cost. */
export interface JudgeVerdict {
  verdict: boolean;
  reason: string;
  calls: number;
  costUsd: number;
}

/** A judge of open answers. */
export interface Judge {
  judge(input: JudgeInput): Promise<JudgeVerdict>;
}
