import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { addUser } from '../users/users.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { deleteFilter, listFilters, MAX_FILTERS, saveFilter } from './filters.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

const pending = [{ field: 'status', type: 'enum', value: ['Pending'] }];

describe('saved filters', () => {
  it("lists the fixed filters in list form, then the user's own from id 1000", () => {
    expect(listFilters(ctx, ctx.boot.admin)).toEqual([
      { id: 1, title: 'Pending', filter: pending, fixed: true },
      { id: 2, title: 'Open', filter: [{ field: 'status', type: 'enum', value: ['Approved'] }], fixed: true },
      { id: 3, title: 'Deleted', filter: [{ field: 'status', type: 'enum', value: ['Deleted'] }], fixed: true },
    ]);
    const saved = saveFilter(ctx, ctx.boot.admin, { title: '  Mine  ', filter: { client: { type: 'text', value: 'orion' } } });
    expect(saved).toEqual({
      filter: { id: 1000, title: 'Mine', filter: [{ field: 'client', type: 'text', value: 'orion' }], fixed: false },
      message: 'filter saved',
    });
    const other = addUser(ctx, { email: 'o@example.com', name: 'Other User', role: 'DeliveryTeamMember' });
    expect(listFilters(ctx, other).map((f) => f.id)).toEqual([1, 2, 3]);
    expect(saveFilter(ctx, other, { title: 'x', filter: [], successMessage: 'Saved!' }).message).toBe('Saved!');
  });

  it('needs a title and a valid filter', () => {
    expect(() => saveFilter(ctx, ctx.boot.admin, { title: '   ', filter: pending })).toThrow(new ValidationError('A filter name must not be empty'));
    expect(() => saveFilter(ctx, ctx.boot.admin, { filter: pending })).toThrow('A filter name must not be empty');
    expect(() => saveFilter(ctx, ctx.boot.admin, { title: 'Bad', filter: [{ field: 'colour', type: 'text', value: 'red' }] })).toThrow(
      /Unknown filter field: colour/,
    );
  });

  it('keeps at most 7 filters, fixed ones included, per user', () => {
    for (let i = 0; i < MAX_FILTERS - 3; i++) saveFilter(ctx, ctx.boot.admin, { title: `F${i}`, filter: pending });
    expect(() => saveFilter(ctx, ctx.boot.admin, { title: 'One too many', filter: pending })).toThrow('At most 7 filters can be saved');
    expect(listFilters(ctx, ctx.boot.admin)).toHaveLength(7);
    const other = addUser(ctx, { email: 'o@example.com', name: 'Other User', role: 'DeliveryTeamMember' });
    expect(saveFilter(ctx, other, { title: 'Fine', filter: pending }).filter.title).toBe('Fine');
  });

  it('deletes own filters only; fixed ones are refused', () => {
    const { filter } = saveFilter(ctx, ctx.boot.admin, { title: 'Mine', filter: pending });
    const other = addUser(ctx, { email: 'o@example.com', name: 'Other User', role: 'DeliveryTeamMember' });
    expect(() => deleteFilter(ctx, ctx.boot.admin, 2)).toThrow(new ConflictError('Built-in filters cannot be deleted'));
    expect(() => deleteFilter(ctx, other, filter.id)).toThrow(NotFoundError);
    expect(() => deleteFilter(ctx, ctx.boot.admin, 4242)).toThrow(`No such filter with id: 4242`);
    expect(deleteFilter(ctx, ctx.boot.admin, filter.id)).toEqual({ id: filter.id });
    expect(listFilters(ctx, ctx.boot.admin).map((f) => f.id)).toEqual([1, 2, 3]);
  });
});
