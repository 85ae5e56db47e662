-- Collector-heavy: a long run of small collections (a tiny nursery, -A16k, on two
-- capabilities), so that its eventlog is mostly the runtime's own GC and heap events:
-- about 2 x 10^5 collections and 90 MB of eventlog, what `--stats` reads whole.
import qualified Data.Map.Strict as M
import Data.List (foldl')

main :: IO ()
main = print $ M.size $ foldl' step M.empty [1 .. 6000000 :: Int]
  where step m i = M.insert (i `mod` 4096) i m
