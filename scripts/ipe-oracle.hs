-- The info-table provenance (IPE) events of an eventlog as GHC's own eventlog library
-- (ghc-events) reads them, one line each, tab-separated: address in hex, table name,
-- closure description, type, label, module, source location. The tests name `-hi`
-- bands from this reading, not from hpgraph's own.
-- Build: ghc -O scripts/ipe-oracle.hs -o ipe-oracle (Debian: libghc-ghc-events-dev).
import GHC.RTS.Events
import Numeric (showHex)
import System.Environment (getArgs)
import System.Exit (die)
import qualified Data.Text as T

main :: IO ()
main = do
  [file] <- getArgs
  r <- readEventLogFromFile file
  EventLog _ (Data events) <- either die return r
  mapM_ line [i | Event _ i@InfoTableProv{} _ <- events]
  where
    line e = putStrLn $ concat
      [ showHex (itInfo e) "", "\t", T.unpack (itTableName e), "\t", show (itClosureDesc e)
      , "\t", T.unpack (itTyDesc e), "\t", T.unpack (itLabel e), "\t", T.unpack (itModule e)
      , "\t", T.unpack (itSrcLoc e) ]
