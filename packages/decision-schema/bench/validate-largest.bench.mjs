// Benchmark (not a test): validation time of the largest legal decision requests.
// Usage: pnpm --filter @gateway/decision-schema build && pnpm --filter @gateway/decision-schema bench
// Optional: ITERATIONS=200 WARMUP=20 node bench/validate-largest.bench.mjs
import { performance } from "node:perf_hooks";
import { checkDecisionResponse, decisionLimits, parseDecisionRequest } from "../dist/index.js";

const iterations = Number(process.env.ITERATIONS ?? 100);
const warmup = Number(process.env.WARMUP ?? 20);
const { maxQuestions, maxCriteria } = decisionLimits;

/** 200 choice questions of 255 choices each, every choice described by a short string. */
function largestChoiceRequest() {
  const questions = {};
  for (let question = 0; question < maxQuestions; question += 1) {
    const criteria = {};
    for (let choice = 0; choice < maxCriteria; choice += 1) criteria[`choice_${question}_${choice}`] = `Description of choice ${choice}.`;
    questions[`question_${question}`] = { type: "choice", instructions: `Pick the best choice for aspect ${question}.`, criteria };
  }
  return { model: "acme/openai/gpt-4o-mini", state: { ticket: "A long customer message.", history: ["a", "b"] }, questions };
}

/** 200 score questions of 255 ordered levels each. */
function largestScoreRequest() {
  const questions = {};
  for (let question = 0; question < maxQuestions; question += 1) {
    const criteria = Array.from({ length: maxCriteria }, (_, level) => `Level ${level} of aspect ${question}.`);
    questions[`question_${question}`] = { type: "score", instructions: `Rate aspect ${question}.`, criteria };
  }
  return { model: "acme/openai/gpt-4o-mini", state: "A long customer message.", questions };
}

/** 200 score questions with 255-entry numeric rubrics (exercises the distinct-key check). */
function largestRubricRequest() {
  const questions = {};
  for (let question = 0; question < maxQuestions; question += 1) {
    const criteria = {};
    for (let level = 0; level < maxCriteria; level += 1) criteria[String(level / 2)] = `Score ${level / 2}.`;
    questions[`question_${question}`] = { type: "score", instructions: `Rate aspect ${question}.`, criteria };
  }
  return { model: "acme/openai/gpt-4o-mini", state: "A long customer message.", questions };
}

/** A full answer (probabilities over all 255 choices) to every question of the choice request. */
function fullChoiceResponse(request) {
  const answers = {};
  for (const [name, question] of Object.entries(request.questions)) {
    const names = Object.keys(question.criteria);
    const probabilities = Object.fromEntries(names.map((choice) => [choice, 1 / names.length]));
    answers[name] = { type: "choice", choice: names[0], probabilities, confidence: 0 };
  }
  return { answers, model: request.model, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
}

function measure(label, run) {
  for (let index = 0; index < warmup; index += 1) run();
  const samples = [];
  for (let index = 0; index < iterations; index += 1) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const percentile = (p) => samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)];
  const mean = samples.reduce((total, value) => total + value, 0) / samples.length;
  return { case: label, "mean ms": mean.toFixed(2), "p50 ms": percentile(50).toFixed(2), "p99 ms": percentile(99).toFixed(2), "max ms": samples.at(-1).toFixed(2) };
}

const choiceRequest = largestChoiceRequest();
const scoreRequest = largestScoreRequest();
const rubricRequest = largestRubricRequest();
const parsedChoiceRequest = parseDecisionRequest(choiceRequest);
const choiceResponse = fullChoiceResponse(choiceRequest);
const oversizedRequest = { ...choiceRequest, questions: { ...choiceRequest.questions, extra: choiceRequest.questions.question_0 } };

const choiceBody = JSON.stringify(choiceRequest);

const rows = [
  measure(`JSON.parse of the choice body (${(choiceBody.length / 1e6).toFixed(1)} MB), for scale`, () => JSON.parse(choiceBody)),
  measure("parseDecisionRequest: 200 choice x 255 choices", () => parseDecisionRequest(choiceRequest)),
  measure("parseDecisionRequest: 200 score x 255 levels", () => parseDecisionRequest(scoreRequest)),
  measure("parseDecisionRequest: 200 score x 255-key rubric", () => parseDecisionRequest(rubricRequest)),
  measure("parseDecisionRequest: 201 questions (rejected)", () => {
    try {
      parseDecisionRequest(oversizedRequest);
    } catch {
      return;
    }
    throw new Error("the oversized request was accepted");
  }),
  measure("checkDecisionResponse: 200 choice answers x 255 probabilities", () => checkDecisionResponse(parsedChoiceRequest, choiceResponse)),
];

console.log(`node ${process.version}, ${iterations} iterations after ${warmup} warm-up runs`);
console.table(rows);
