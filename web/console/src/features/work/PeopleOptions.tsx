import { personName, type WorkEmployee } from "./queries";

/** PeopleOptions offers the company's members to choose from, in a SelectField. */
export function PeopleOptions({ people }: { people: WorkEmployee[] }) {
  return people.map((p) => (
    <option key={p.user_id} value={p.user_id}>
      {personName(p)}
    </option>
  ));
}
