import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { addUser } from '../users/users.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { deleteFilter, listFilters, MAX_FILTERS, saveFilter } from './filters.js';

const pending = [{ field: 'status', type: 'enum', value: ['Pending'] }];

describeEachDialect('saved filters', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  it("lists the fixed filters in list form, then the user's own from id 1000", async () => {
    expect(await listFilters(ctx, ctx.boot.admin)).toEqual([
      { id: 1, title: 'Pending', filter: pending, fixed: true },
      { id: 2, title: 'Open', filter: [{ field: 'status', type: 'enum', value: ['Approved'] }], fixed: true },
      { id: 3, title: 'Deleted', filter: [{ field: 'status', type: 'enum', value: ['Deleted'] }], fixed: true },
    ]);
    const saved = await saveFilter(ctx, ctx.boot.admin, { title: '  Mine  ', filter: { client: { type: 'text', value: 'orion' } } });
    expect(saved).toEqual({
      filter: { id: 1000, title: 'Mine', filter: [{ field: 'client', type: 'text', value: 'orion' }], fixed: false },
      message: 'filter saved',
    });
    const other = await addUser(ctx, { email: 'o@example.com', name: 'Other User', role: 'DeliveryTeamMember' });
    expect((await listFilters(ctx, other)).map((f) => f.id)).toEqual([1, 2, 3]);
    expect((await saveFilter(ctx, other, { title: 'x', filter: [], successMessage: 'Saved!' })).message).toBe('Saved!');
  });

  it('needs a title and a valid filter', async () => {
    await expect(saveFilter(ctx, ctx.boot.admin, { title: '   ', filter: pending })).rejects.toThrow(new ValidationError('A filter name must not be empty'));
    await expect(saveFilter(ctx, ctx.boot.admin, { filter: pending })).rejects.toThrow('A filter name must not be empty');
    await expect(saveFilter(ctx, ctx.boot.admin, { title: 'Bad', filter: [{ field: 'colour', type: 'text', value: 'red' }] })).rejects.toThrow(
      /Unknown filter field: colour/,
    );
  });

  it('keeps at most 7 filters, fixed ones included, per user', async () => {
    for (let i = 0; i < MAX_FILTERS - 3; i++) await saveFilter(ctx, ctx.boot.admin, { title: `F${i}`, filter: pending });
    await expect(saveFilter(ctx, ctx.boot.admin, { title: 'One too many', filter: pending })).rejects.toThrow('At most 7 filters can be saved');
    expect(await listFilters(ctx, ctx.boot.admin)).toHaveLength(7);
    const other = await addUser(ctx, { email: 'o@example.com', name: 'Other User', role: 'DeliveryTeamMember' });
    expect((await saveFilter(ctx, other, { title: 'Fine', filter: pending })).filter.title).toBe('Fine');
  });

  it('keeps the limit when a user saves filters at once (PostgreSQL: each save on its own pooled connection)', async () => {
    for (let i = 0; i < MAX_FILTERS - 5; i++) await saveFilter(ctx, ctx.boot.admin, { title: `F${i}`, filter: pending });
    const results = await Promise.allSettled(['Six', 'Seven', 'Eight'].map((title) => saveFilter(ctx, ctx.boot.admin, { title, filter: pending })));
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(await listFilters(ctx, ctx.boot.admin)).toHaveLength(MAX_FILTERS);
  });

  it('deletes own filters only; fixed ones are refused', async () => {
    const { filter } = await saveFilter(ctx, ctx.boot.admin, { title: 'Mine', filter: pending });
    const other = await addUser(ctx, { email: 'o@example.com', name: 'Other User', role: 'DeliveryTeamMember' });
    await expect(deleteFilter(ctx, ctx.boot.admin, 2)).rejects.toThrow(new ConflictError('Built-in filters cannot be deleted'));
    await expect(deleteFilter(ctx, other, filter.id)).rejects.toThrow(NotFoundError);
    await expect(deleteFilter(ctx, ctx.boot.admin, 4242)).rejects.toThrow(`No such filter with id: 4242`);
    expect(await deleteFilter(ctx, ctx.boot.admin, filter.id)).toEqual({ id: filter.id });
    expect((await listFilters(ctx, ctx.boot.admin)).map((f) => f.id)).toEqual([1, 2, 3]);
  });
});
