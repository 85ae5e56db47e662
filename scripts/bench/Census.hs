-- Census-heavy: many maps of lists live at once, profiled at every major collection
-- (+RTS -hc -i0 -A256k), so the eventlog is mostly heap census events.
import Data.List (foldl')
import qualified Data.Map.Strict as M

build :: Int -> M.Map Int [Int]
build k = foldl' (\m i -> M.insert i [i .. i + k `mod` 7] m) M.empty [1 .. 20000 + k]

main :: IO ()
main = print (sum [M.size (build k) | k <- [1 .. 40]])
