/**
 * The allow-list in the prompt: the members a page test needs, not the whole list (which the gate
 * still holds). Scribe's and the Medic's system prompts render the criteria the same way.
 */
import { describe, expect, it } from 'vitest';
import { renderCriteria } from '../../src/agents/scribe-prompt.ts';
import { loadCriticConfig } from '../../src/config/critic.ts';

const critic = loadCriticConfig();
const allowList = () => renderCriteria(critic).split('\n').find((line) => line.startsWith('- allowed-code'))!;
const allowedMembers = (critic.criteria.find((c) => c.id === 'allowed-code')!.options as { members: string[] }).members;

describe('the allow-list in the prompt', () => {
  it('names the members a test of a page is written with', () => {
    for (const member of ['goto', 'getByTestId', 'getByRole', 'fill', 'click', 'check', 'toHaveText', 'toBeVisible', 'toHaveCount', 'step', 'outputPath', 'screenshot']) {
      expect(allowList()).toMatch(new RegExp(`[:,] ${member}(,|$)`));
    }
  });

  it('leaves out the rest of the list, which the gate still allows, and says so', () => {
    for (const member of ['setGeolocation', 'fulfill', 'padStart', 'getTimezoneOffset', 'postDataJSON']) {
      expect(allowedMembers).toContain(member);
      expect(allowList()).not.toMatch(new RegExp(`[:,] ${member}(,|$)`));
    }
    expect(allowList()).toContain("the rest of agents/critic.yaml's list is allowed too, and a refused member is named");
  });

  it('names no member the list does not allow', () => {
    const named = allowList().split('a refused member is named): ')[1]!.replace(/\]$/, '').split(', ');
    expect(named.filter((m) => !allowedMembers.includes(m))).toEqual([]);
  });

  it('keeps the imports, fixtures and globals, each global with its members in one entry', () => {
    expect(allowList()).toContain('fixtures: page, context');
    expect(allowList()).toContain('Math.{abs,ceil,floor,');
    expect(allowList()).toContain('imports: {"@playwright/test":["test","expect","devices"]}');
  });
});
