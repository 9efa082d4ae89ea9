-- A strategy's stored figures name their opponents by the project's two words: "perfect" for the
-- full-state perfect player (was stored as "optimal") and "best-table" for the best score-only table
-- (was stored as "perfect", before the perfect bot played full-state). The old key of each is renamed
-- in the JSON text, the older one first so the two never meet. Portable: REPLACE is in both dialects.

UPDATE strategies SET figures = REPLACE(figures, '["perfect", ', '["best-table", ')
WHERE figures IS NOT NULL;

UPDATE strategies SET figures = REPLACE(figures, '["optimal", ', '["perfect", ')
WHERE figures IS NOT NULL;
