/**
 * The line editor's catalogue search (spec §3 bigcomproposal: `productList`, `loading`, `error`,
 * `errorMessage`): every product of the catalogue, by name or SKU, as the person types.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { getErrorMessage } from "../../../lib/errors";
import { type CatalogueProduct, proposalKeys, searchProducts } from "./proposals-api";

export interface ProductSearch {
  productList: CatalogueProduct[];
  loading: boolean;
  error: boolean;
  errorMessage: string | null;
  search: (q: string) => void;
}

export function useProductSearch(enabled: boolean): ProductSearch {
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  // A pause in typing asks once, not at every key.
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);
  const query = useQuery({
    queryKey: proposalKeys.products(q),
    queryFn: () => searchProducts(q),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  return {
    productList: query.data ?? [],
    loading: query.isFetching,
    error: query.isError,
    errorMessage: query.isError ? getErrorMessage(query.error) : null,
    search: setTyped,
  };
}
