import { test, expect } from '@playwright/test';

// Written by Scribe's offline generator (no language model) from the request and the page at /todos.

test.describe('demo', () => {
  test('add a todo and see it in the list', async ({ page }) => {
    await test.step('open /todos', async () => {
      await page.goto('/todos');
    });
    await test.step('fill in New todo', async () => {
      await page.getByTestId('new-todo-input').fill('Try Scribe');
    });
    await test.step('click "Add"', async () => {
      await page.getByTestId('add-todo-button').click();
    });
    await test.step('see "Todo list"', async () => {
      await expect(page.getByTestId('todo-list')).toBeVisible();
      await expect(page.getByTestId('todo-list')).toContainText('Try Scribe', { ignoreCase: true });
      await page.screenshot({ path: test.info().outputPath('outcome.png'), fullPage: true });
    });
  });
});
