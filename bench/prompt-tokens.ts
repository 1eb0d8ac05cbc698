/**
 * Prompt size per accepted spec: three requests on the demo app, each answered well on the first call
 * by the fake model, generated through the whole pipeline (explore, Scribe, Critic, run with its proof).
 * The statistics log says which generations succeeded and how many model calls each made; the tokens are
 * what each call sent (its chat messages, with the chat format's own tokens) and got back, counted with
 * GPT-4o's tokenizer (o200k_base, gpt-tokenizer); the fake model's usage figures are scripted, so they are
 * not used. The character estimate Scribe budgets inventories with is printed beside it, to see how far off
 * it is. Goal: at most 4,000 tokens per accepted spec.
 *
 *   nice -n 15 node --import tsx bench/prompt-tokens.ts
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { countTokens, encodeChat } from 'gpt-tokenizer/encoding/o200k_base';
import { loadScribeConfig } from '../src/config/scribe.ts';
import { startDemoApp } from '../src/demo-app/server.ts';
import { StatsEvent } from '../src/stats/events.ts';
import { generateSpec } from '../src/workflow/pipeline.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';

const spec = (title: string, body: string) => `import { test, expect } from '@playwright/test';

test('${title}', async ({ page }) => {
${body}
  await page.screenshot({ path: test.info().outputPath('done.png') });
});
`;
const REQUESTS = [
  {
    description: 'search for "locators" and see the result',
    start: '/search',
    answer: spec('search', "  await page.goto('/search');\n  await page.getByTestId('search-input').fill('locators');\n  await page.getByTestId('search-button').click();\n  await expect(page.getByTestId('search-result')).toHaveText('Locators and test ids');"),
  },
  {
    description: 'add a todo "Pay rent" and see it in the list',
    start: '/todos',
    answer: spec('add a todo', "  await page.goto('/todos');\n  await page.getByTestId('new-todo-input').fill('Pay rent');\n  await page.getByTestId('add-todo-button').click();\n  await expect(page.getByTestId('todo-list')).toContainText('Pay rent');"),
  },
  {
    description: 'complete the "Buy milk" todo and see "1 item left"',
    start: '/todos',
    answer: spec('complete a todo', "  await page.goto('/todos');\n  await page.getByTestId('todo-item').filter({ hasText: 'Buy milk' }).getByTestId('todo-toggle').check();\n  await expect(page.getByTestId('todo-count')).toHaveText('1 item left');"),
  },
];

const charsPerToken = loadScribeConfig().explore.chars_per_token;
const app = await startDemoApp();
const perSpec: number[] = [];
try {
  for (const request of REQUESTS) {
    const project = makeScribeProject();
    const fake = await startFakeOpenAI();
    try {
      fake.reply({ text: fenced(request.answer) });
      await generateSpec({ description: request.description, feature: 'bench', url: `${app.url}${request.start}` }, { cwd: project.dir, env: project.env(fake.url) });
      const events = readFileSync(path.join(project.home, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => StatsEvent.parse(JSON.parse(line)));
      const accepted = events.some((e) => e.type === 'success');
      const calls = events.filter((e) => e.type === 'model_call').length;
      const messages = fake.requests.map((r) => (r.body.messages ?? []).map((m) => ({ role: m.role as 'system' | 'user' | 'assistant', content: String(m.content) })));
      const prompt = messages.reduce((sum, chat) => sum + encodeChat(chat, 'gpt-4o').length, 0);
      const completion = calls * countTokens(fenced(request.answer));
      const estimated = messages.flat().reduce((sum, m) => sum + Math.ceil(m.content.length / charsPerToken), 0) + Math.ceil((calls * fenced(request.answer).length) / charsPerToken);
      console.log(`${request.description.padEnd(55)} ${accepted ? 'accepted' : 'NOT accepted'}  calls=${calls}  prompt=${prompt}  answer=${completion}  total=${prompt + completion}  (character estimate ${estimated})`);
      if (accepted) perSpec.push(prompt + completion);
    } finally {
      project.remove();
      await fake.close();
    }
  }
} finally {
  await app.close();
}
const mean = perSpec.reduce((a, b) => a + b, 0) / Math.max(1, perSpec.length);
console.log(`tokens per accepted spec with a good answer (o200k_base): ${Math.round(mean)} (goal <= 4000; ${perSpec.length}/${REQUESTS.length} accepted)`);
